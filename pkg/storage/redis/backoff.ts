import { setTimeout as delay } from 'node:timers/promises';

/** Waits `ms`, or less when `signal` aborts; never rejects. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(ms, undefined, { signal });
  } catch {
    // Aborted: the caller checks why.
  }
}

/**
 * Exponential backoff between retries of a Redis call that failed because
 * Redis is unreachable: 50 ms doubling up to 2 s, back to the start after a
 * success.
 *
 * @example const backoff = new Backoff(); … await backoff.wait(signal); … backoff.reset();
 */
export class Backoff {
  private nextMs: number;

  constructor(private readonly minMs = 50, private readonly maxMs = 2_000) {
    this.nextMs = minMs;
  }

  /** Waits the current delay (less when `signal` aborts) and doubles it. */
  async wait(signal?: AbortSignal): Promise<void> {
    const ms = this.nextMs;
    this.nextMs = Math.min(this.nextMs * 2, this.maxMs);
    await sleep(ms, signal);
  }

  /** Starts again from the shortest delay (after a call succeeded). */
  reset(): void {
    this.nextMs = this.minMs;
  }
}
