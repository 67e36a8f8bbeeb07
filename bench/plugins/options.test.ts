import { FULL, QUICK, parsePluginBenchOptions } from './options';

describe('parsePluginBenchOptions', () => {
  it('runs at the full sizes by default, small with --quick, and a flag wins over both', () => {
    expect(parsePluginBenchOptions([])).toEqual(FULL);
    expect(FULL.objects).toBe(10_000);
    expect(parsePluginBenchOptions(['--quick'])).toEqual({ ...FULL, ...QUICK });
    expect(parsePluginBenchOptions(['--quick', '--objects', '200']).objects).toBe(200);
  });

  it('refuses a count that is not a positive integer, naming it', () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(() => parsePluginBenchOptions(['--runs', '0'])).toThrow('expected an integer ≥ 1, not "0"');
    } finally {
      stderr.mockRestore();
    }
  });
});
