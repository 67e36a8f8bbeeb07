import { DEFAULTS, PARTS, parseRbacBenchOptions } from './options';

const argv = (...flags: string[]) => flags;

describe('parseRbacBenchOptions', () => {
  it('runs every part at its full sizes by default', () => {
    expect(parseRbacBenchOptions(argv())).toEqual({ ...DEFAULTS, parts: [...PARTS] });
    expect(DEFAULTS).toMatchObject({ roles: 1_000, bindings: 10_000 });
  });

  it('runs only the parts --only names, in their usual order, and a size flag wins over its default', () => {
    expect(parseRbacBenchOptions(argv('--only', 'propagation,get')).parts).toEqual(['get', 'propagation']);
    expect(parseRbacBenchOptions(argv('--only', 'decisions')).parts).toEqual(['decisions']);
    expect(parseRbacBenchOptions(argv('--changes', '7')).changes).toBe(7);
  });

  it('refuses an unknown part and a count that is not a positive integer', () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(() => parseRbacBenchOptions(argv('--only', 'watch'))).toThrow(
        'expected a comma list of decisions, insight, get, conditions, condition-watch, propagation, audit',
      );
      expect(() => parseRbacBenchOptions(argv('--only', ''))).toThrow(
        'expected a comma list of decisions, insight, get, conditions, condition-watch, propagation, audit',
      );
      expect(() => parseRbacBenchOptions(argv('--replicas', '0'))).toThrow('expected an integer ≥ 1, not "0"');
    } finally {
      stderr.mockRestore();
    }
  });
});
