/**
 * Small statistics and number formats for benchmark reports.
 */

/** The median of samples (the mean of the middle two for an even count). Throws on no samples. */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) throw new Error('median of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A duration in milliseconds with three significant digits, e.g. `0.412 ms`, `38.2 ms`, `1234 ms`. */
export function formatMs(ms: number): string {
  if (ms >= 1000) return `${Math.round(ms)} ms`;
  return `${ms.toPrecision(3)} ms`;
}

/** A throughput, e.g. `12,345 ops/s`. */
export function formatRate(opsPerSecond: number): string {
  return `${Math.round(opsPerSecond).toLocaleString('en-US')} ops/s`;
}

/** A ratio, e.g. `83.4×`, `0.62×`. */
export function formatRatio(ratio: number): string {
  return `${ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2)}×`;
}
