import { tooManyRequests, type StatusError } from '../../api/errors';

/** The limits of failed logins a minute (docs/security.md), set by apiserver flags. */
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
 * per user and per address over a sliding minute, in this process's memory.
 * A user or an address with `limit` failures in the last minute is locked:
 * every password attempt for it is refused 429 with `Retry-After` before any
 * password is checked, the right one included, until the oldest of those
 * failures leaves the minute. Attempts refused while locked are not counted,
 * so `Retry-After` is exact. Below the limit nothing is refused.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limits: LoginThrottleLimits = DEFAULT_LOGIN_LIMITS,
    private readonly now = Date.now,
  ) {}

  /** The 429 to answer a password attempt for `user` from `address` with, or undefined when neither is locked. */
  locked(user: string | undefined, address: string | undefined): StatusError | undefined {
    const t = this.now();
    const wait = Math.max(
      this.waitFor(userKey(user), t, this.limits.perUser),
      this.waitFor(addressKey(address), t, this.limits.perAddress),
    );
    return wait > 0 ? refusal(wait) : undefined;
  }

  /**
   * Records one failure and returns the error to answer it with: `fallback`
   * (the 401 or 422 the failure is), or 429 when the user or address was
   * already locked (a failure found without a password check, such as an
   * unknown token, or one that raced the lock), which is then not counted.
   */
  fail(user: string | undefined, address: string | undefined, fallback: Error): Error {
    const refused = this.locked(user, address);
    if (refused) return refused;
    const t = this.now();
    this.record(userKey(user), t, this.limits.perUser);
    this.record(addressKey(address), t, this.limits.perAddress);
    return fallback;
  }

  /** Lifts `user`'s lock and forgets their failures (an administrator set their password). */
  clearUser(user: string): void {
    this.failures.delete(`u:${user}`);
  }

  /** How long until `key` is under its limit again: 0 when it already is. */
  private waitFor(key: string | undefined, t: number, limit: number): number {
    const times = key === undefined ? undefined : this.recent(key, t);
    if (!times || times.length < limit) return 0;
    return times[times.length - limit] + WINDOW_MS - t;
  }

  /** `key`'s failures within the minute before `t`, oldest first (older ones dropped). */
  private recent(key: string, t: number): number[] | undefined {
    const times = this.failures.get(key);
    while (times?.length && times[0] <= t - WINDOW_MS) times.shift();
    return times;
  }

  /** Adds a failure at `t`, keeping at most `limit` of them: the ones that decide the lock. */
  private record(key: string | undefined, t: number, limit: number): void {
    if (key === undefined) return;
    let times = this.recent(key, t);
    if (!times) {
      if (this.failures.size >= MAX_KEYS) this.prune(t);
      times = [];
      this.failures.set(key, times);
    }
    times.push(t);
    if (times.length > limit) times.shift();
  }

  private prune(t: number): void {
    for (const [key, times] of this.failures) {
      if (!times.length || times[times.length - 1] <= t - WINDOW_MS) this.failures.delete(key);
    }
    if (this.failures.size >= MAX_KEYS) this.failures.clear();
  }
}

const userKey = (user: string | undefined) => (user === undefined ? undefined : `u:${user}`);
const addressKey = (address: string | undefined) => (address === undefined ? undefined : `a:${address}`);

const refusal = (waitMs: number) =>
  tooManyRequests('too many failed login attempts; try again later', Math.max(1, Math.ceil(waitMs / 1000)));
