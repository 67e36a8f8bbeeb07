import { FULL, QUICK, parseBenchOptions } from './options';

const argv = (...flags: string[]) => flags;

describe('parseBenchOptions', () => {
  it('runs the full benchmark by default', () => {
    expect(parseBenchOptions(argv())).toEqual(FULL);
    expect(FULL).toMatchObject({ objects: 10_000, watchers: 1_000, watchRate: 100, fastWatchers: 10, fastRate: 1_000 });
  });

  it('takes the small settings with --quick, and a flag still wins over them', () => {
    expect(parseBenchOptions(argv('--quick'))).toEqual({ ...FULL, ...QUICK });
    expect(parseBenchOptions(argv('--quick', '--watchers', '7')).watchers).toBe(7);
  });

  it('warms each watch case up for 2 s unless told otherwise, 0 turning it off', () => {
    expect(FULL.watchWarmup).toBe(2);
    expect(parseBenchOptions(argv('--watch-warmup', '0')).watchWarmup).toBe(0);
    expect(parseBenchOptions(argv('--watch-warmup', '5')).watchWarmup).toBe(5);
  });

  it('refuses a count that is not a positive integer', () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(() => parseBenchOptions(argv('--requests', '0'))).toThrow('expected an integer ≥ 1, not "0"');
      expect(() => parseBenchOptions(argv('--seconds', 'abc'))).toThrow('expected an integer ≥ 1, not "abc"');
      expect(() => parseBenchOptions(argv('--watch-warmup', '-1'))).toThrow('expected an integer ≥ 0, not "-1"');
    } finally {
      stderr.mockRestore();
    }
  });
});
