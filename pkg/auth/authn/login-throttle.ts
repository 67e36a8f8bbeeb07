import { tooManyRequests } from '../../api/errors';

/** The limits of failed logins a minute (API.md §8), set by apiserver flags. */
export interface LoginThrottleLimits {
  /** Failed logins a minute for one user before 429; default 10. */
  perUser: number;
  /** Failed logins a minute from one address before 429; default 100. */
  perAddress: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginThrottleLimits = { perUser: 10, perAddress: 100 };

const WINDOW_MS = 60_000;
/** Keys remembered at most, so that a flood of made-up user names cannot grow memory without bound. */
const MAX_KEYS = 100_000;

/**
 * Counts failed logins (wrong passwords, wrong old passwords, unknown tokens)
 * per user and per address over a sliding minute. A failure past a limit is
 * answered 429 with `Retry-After` instead of 401; a successful request is
 * never throttled (API.md §8): only failures are counted and only failures are
 * refused.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limits: LoginThrottleLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now = Date.now,
  ) {}

  /**
   * Records one failure and returns the error to answer it with: 429 when a
   * limit is passed, otherwise `fallback` (the 401 or 422 the failure is).
   */
  fail(user: string | undefined, address: string | undefined, fallback: Error): Error {
    const t = this.now();
    const userWait = user === undefined ? 0 : this.record(`u:${user}`, t, this.limits.perUser);
    const addressWait = address === undefined ? 0 : this.record(`a:${address}`, t, this.limits.perAddress);
    const wait = Math.max(userWait, addressWait);
    if (wait === 0) return fallback;
    return tooManyRequests('too many failed login attempts; try again later', Math.max(1, Math.ceil(wait / 1000)));
  }

  /** Adds a failure at `t`; returns how long until the key is under its limit again (0 when it already is). */
  private record(key: string, t: number, limit: number): number {
    let times = this.failures.get(key);
    if (!times) {
      if (this.failures.size >= MAX_KEYS) this.prune(t);
      times = [];
      this.failures.set(key, times);
    }
    while (times.length && times[0] <= t - WINDOW_MS) times.shift();
    times.push(t);
    if (times.length > limit + 1) times.shift();
    return times.length > limit ? times[0] + WINDOW_MS - t : 0;
  }

  private prune(t: number): void {
    for (const [key, times] of this.failures) {
      if (!times.length || times[times.length - 1] <= t - WINDOW_MS) this.failures.delete(key);
    }
    if (this.failures.size >= MAX_KEYS) this.failures.clear();
  }
}
