import { DEFAULTS, PARTS, parseRbacBenchOptions } from './options';

const argv = (...flags: string[]) => ['node', 'main.js', ...flags];

describe('parseRbacBenchOptions', () => {
  it('runs every part at the sizes of issue 8 by default', () => {
    expect(parseRbacBenchOptions(argv())).toEqual({ ...DEFAULTS, parts: [...PARTS] });
    expect(DEFAULTS).toMatchObject({ roles: 1_000, bindings: 10_000 });
  });

  it('runs only the parts --only names, in their usual order, and a size flag wins over its default', () => {
    expect(parseRbacBenchOptions(argv('--only', 'propagation,get')).parts).toEqual(['get', 'propagation']);
    expect(parseRbacBenchOptions(argv('--only', 'decisions')).parts).toEqual(['decisions']);
    expect(parseRbacBenchOptions(argv('--changes', '7')).changes).toBe(7);
  });

  it('refuses an unknown part and a count that is not a positive integer', () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation(((code?: number) => {
      throw new Error(`exit ${code}`);
    }) as typeof process.exit);
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(() => parseRbacBenchOptions(argv('--only', 'watch'))).toThrow('exit 1');
      expect(() => parseRbacBenchOptions(argv('--only', ''))).toThrow('exit 1');
      expect(() => parseRbacBenchOptions(argv('--replicas', '0'))).toThrow('exit 1');
    } finally {
      exit.mockRestore();
      stderr.mockRestore();
    }
  });
});
