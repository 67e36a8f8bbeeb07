/**
 * Small statistics for benchmark figures (their formats are in report.ts).
 */

/** The median of samples (the mean of the middle two for an even count). Throws on no samples. */
export function median(samples: readonly number[]): number {
  if (samples.length === 0) throw new Error('median of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
