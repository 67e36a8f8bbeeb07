/**
 * Rate limiters decide how long a key waits before it is retried (client-go's
 * workqueue rate limiters). The work queue asks `when(key)` on every
 * `addRateLimited` and calls `forget(key)` once the key succeeded.
 */
export interface RateLimiter<K = string> {
  /** How long (ms) the key should wait now; records one more retry of it. */
  when(key: K): number;
  /** The key succeeded: clear its history. */
  forget(key: K): void;
  /** How many times the key has been retried since it was last forgotten. */
  retries(key: K): number;
}

/**
 * Per-key exponential backoff: `baseMs * 2^failures`, capped at `maxMs`.
 * With the defaults: 5 ms, 10 ms, 20 ms, … up to 1000 s.
 */
export class ExponentialRateLimiter<K = string> implements RateLimiter<K> {
  private readonly failures = new Map<K, number>();

  constructor(
    private readonly baseMs = 5,
    private readonly maxMs = 1_000_000,
  ) {}

  when(key: K): number {
    const failures = this.failures.get(key) ?? 0;
    this.failures.set(key, failures + 1);
    return Math.min(this.baseMs * 2 ** failures, this.maxMs);
  }

  forget(key: K): void {
    this.failures.delete(key);
  }

  retries(key: K): number {
    return this.failures.get(key) ?? 0;
  }
}

/**
 * An overall token bucket shared by every key: `qps` tokens a second, at most
 * `burst` saved up. Each `when` takes a token, reserving one from the future
 * (and answering how long until it is due) when none is left.
 */
export class BucketRateLimiter<K = string> implements RateLimiter<K> {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps = 50,
    private readonly burst = 300,
    private readonly now: () => number = Date.now,
  ) {
    if (qps <= 0 || burst < 1) throw new Error(`a token bucket needs qps > 0 and burst ≥ 1, got ${qps} and ${burst}`);
    this.tokens = burst;
    this.last = now();
  }

  when(_key: K): number {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.qps);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.qps) * 1000);
  }

  forget(_key: K): void {
    // The bucket is shared: one key's success gives nothing back.
  }

  retries(_key: K): number {
    return 0;
  }
}

/** The longest wait of several limiters; every one of them records the retry. */
export class MaxOfRateLimiter<K = string> implements RateLimiter<K> {
  private readonly limiters: RateLimiter<K>[];

  constructor(...limiters: RateLimiter<K>[]) {
    this.limiters = limiters;
  }

  when(key: K): number {
    return Math.max(0, ...this.limiters.map((l) => l.when(key)));
  }

  forget(key: K): void {
    for (const l of this.limiters) l.forget(key);
  }

  retries(key: K): number {
    return Math.max(0, ...this.limiters.map((l) => l.retries(key)));
  }
}

/** sample-controller's limiter: per-key 5 ms doubling to 1000 s, and overall 50 qps with a burst of 300. */
export function defaultControllerRateLimiter<K = string>(): RateLimiter<K> {
  return new MaxOfRateLimiter<K>(new ExponentialRateLimiter<K>(5, 1_000_000), new BucketRateLimiter<K>(50, 300));
}
