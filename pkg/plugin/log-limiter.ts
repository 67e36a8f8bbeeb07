/**
 * Caps how many log lines a plugin may write a second, so that a plugin
 * logging in a loop cannot flood the apiserver's log. Lines beyond the cap are
 * dropped and counted; the count is handed back once the next second begins.
 */
export class LogLimiter {
  private windowStart = -Infinity;
  private count = 0;
  private dropped = 0;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether this line may be written, and how many were dropped in the second before (0 but once a second). */
  take(): { allowed: boolean; droppedBefore: number } {
    const now = this.now();
    let droppedBefore = 0;
    if (now - this.windowStart >= 1000) {
      droppedBefore = this.dropped;
      this.windowStart = now;
      this.count = 0;
      this.dropped = 0;
    }
    this.count += 1;
    const allowed = this.count <= this.perSecond;
    if (!allowed) this.dropped += 1;
    return { allowed, droppedBefore };
  }
}
