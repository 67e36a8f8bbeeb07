import { warningPrinter } from './warnings';

describe('warningPrinter', () => {
  it('prints each warning on stderr once, kubectl style', () => {
    let stderr = '';
    const warn = warningPrinter({ stderr: (t) => (stderr += t) });
    warn('unknown field "spec.nmae"');
    warn('unknown field "spec.agee"');
    warn('unknown field "spec.nmae"');
    expect(stderr).toBe('Warning: unknown field "spec.nmae"\nWarning: unknown field "spec.agee"\n');
  });
});
