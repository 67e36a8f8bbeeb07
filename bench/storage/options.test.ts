import { parseBenchOptions, parseSizes } from './options';

describe('the storage benchmark options', () => {
  it('default to the full sizes and operation count', () => {
    expect(parseBenchOptions([])).toEqual({ sizes: [10_000, 100_000], ops: 20_000, runs: 7, indexLayout: 'plain' });
  });

  it('take a quick run', () => {
    expect(
      parseBenchOptions(['--sizes', '2000', '--ops', '2000', '--runs', '3', '--index-layout', 'bucketed']),
    ).toEqual({ sizes: [2000], ops: 2000, runs: 3, indexLayout: 'bucketed' });
  });

  it('sort sizes and drop repeats', () => {
    expect(parseSizes('100000, 10_000,10000')).toEqual([10_000, 100_000]);
  });

  it('refuse what is not a count', () => {
    expect(() => parseSizes('10k')).toThrow('expected an integer ≥ 1, not "10k"');
    expect(() => parseSizes(',')).toThrow('expected object counts');
  });

  it('refuse fewer writes than are kept in flight', () => {
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(() => parseBenchOptions(['--ops', '10'])).toThrow('expected an integer ≥ 32, not "10"');
    } finally {
      write.mockRestore();
    }
  });
});
