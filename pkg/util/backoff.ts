/** Resolves after `ms`, or at once when `signal` aborts (never rejects). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Exponential backoff with jitter for retrying after errors: `next()`
 * answers the next delay (initial, ×factor each time, capped), `wait()`
 * sleeps it, `reset()` starts over after a success.
 *
 * @example const backoff = new Backoff(50, 2_000); … await backoff.wait(signal); … backoff.reset();
 */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly initialMs = 250,
    private readonly maxMs = 30_000,
    private readonly factor = 2,
    /** A delay is stretched by up to this fraction at random, so that many clients do not retry in step. */
    private readonly jitter = 0.2,
  ) {}

  /** The delay before the next attempt (ms); each call makes the following one longer. */
  next(): number {
    const base = Math.min(this.initialMs * this.factor ** this.attempt, this.maxMs);
    this.attempt++;
    return Math.round(base * (1 + Math.random() * this.jitter));
  }

  /** Sleeps the next delay, less when `signal` aborts; never rejects. */
  wait(signal?: AbortSignal): Promise<void> {
    return sleep(this.next(), signal);
  }

  /** Back to the initial delay, after a success. */
  reset(): void {
    this.attempt = 0;
  }
}
