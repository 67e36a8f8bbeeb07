import { LatencyRecorder, summarizeLatencies } from './latency-stats';

describe('summarizeLatencies', () => {
  it('gives nearest-rank percentiles and the maximum', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1, unsorted on purpose
    expect(summarizeLatencies(samples)).toEqual({ count: 100, p50: 50, p99: 99, max: 100 });
  });

  it('puts a single outlier in a hundred above p99, and two at p99', () => {
    const one = [...Array.from({ length: 99 }, () => 1), 500];
    expect(summarizeLatencies(one).p99).toBe(1);
    const two = [...Array.from({ length: 98 }, () => 1), 500, 500];
    expect(summarizeLatencies(two).p99).toBe(500);
  });

  it('is all zero for no samples', () => {
    expect(summarizeLatencies([])).toEqual({ count: 0, p50: 0, p99: 0, max: 0 });
  });
});

describe('LatencyRecorder', () => {
  it('keeps every sample in order as it grows past its first capacity', () => {
    const recorder = new LatencyRecorder();
    for (let i = 0; i < 5000; i++) recorder.record(i / 2);
    const values = recorder.values();
    expect(values.length).toBe(5000);
    expect(values[0]).toBe(0);
    expect(values[4999]).toBe(2499.5);
  });
});
