/** Percentiles of a set of latency samples, in milliseconds. */
export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * The p50, p99 and max of `samples` (milliseconds), by the nearest-rank
 * method; all zero when there are none. Sorts a copy.
 *
 * @example summarizeLatencies(Float64Array.of(1, 2, 3, 4)) // { count: 4, p50: 2, p99: 4, max: 4 }
 */
export function summarizeLatencies(samples: Float64Array | number[]): LatencySummary {
  const sorted = Float64Array.from(samples).sort();
  const count = sorted.length;
  if (count === 0) return { count, p50: 0, p99: 0, max: 0 };
  return { count, p50: nearestRank(sorted, 0.5), p99: nearestRank(sorted, 0.99), max: sorted[count - 1] };
}

/** The smallest sample with at least `q` of all samples at or below it. */
function nearestRank(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Collects latency samples (milliseconds) into a growing typed array. */
export class LatencyRecorder {
  private samples = new Float64Array(1024);
  private length = 0;

  /** Adds one sample. */
  record(ms: number): void {
    if (this.length === this.samples.length) {
      const bigger = new Float64Array(this.samples.length * 2);
      bigger.set(this.samples);
      this.samples = bigger;
    }
    this.samples[this.length++] = ms;
  }

  /** The samples so far. */
  values(): Float64Array {
    return this.samples.subarray(0, this.length);
  }
}
