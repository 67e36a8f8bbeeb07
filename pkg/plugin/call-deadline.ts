/**
 * The timeout to give an index call started at `nowMs` (a monotonic clock, e.g. `performance.now()`) so that it
 * runs at least `limitMs`, and calls started in the same slot of a tenth of the limit fall due together.
 *
 * isolated-vm keeps the timer of every call with a timeout, finished or not, until it falls due, and its timer
 * thread wakes once for each due time: one wake-up per write at the limit exactly, one per slot here (ADR 0059).
 */
export function coarseTimeout(limitMs: number, nowMs: number): number {
  const slot = Math.max(1, Math.floor(limitMs / 10));
  return limitMs + slot - (Math.floor(nowMs) % slot);
}
