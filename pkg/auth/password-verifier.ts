import { createHash, randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { serviceUnavailable } from '../api/errors';
import { DEFAULT_PASSWORD_HASH, hashPassword, verifyPassword, type PasswordHashOptions } from './password';

/** How a PasswordVerifier is sized and what it runs. */
export interface PasswordVerifierOptions {
  /** Verifications running at once; default the number of cores. */
  concurrency?: number;
  /** Verifications waiting for a slot at most; past it an attempt is 503. Default 8 per running slot. */
  maxQueue?: number;
  /** The cost of the dummy hash an unusable account is checked against: the cost real hashes are made with. */
  hashOptions?: PasswordHashOptions;
  /** The check itself (argon2's by default); replaced in tests. */
  verify?: (hash: string, password: string) => Promise<boolean>;
  /** The dummy hash (made once at construction by default); given in tests. */
  dummyHash?: Promise<string>;
}

/**
 * Queued verifications per running slot when `maxQueue` is not given: a login
 * waits at most about 8 verifications' time (a few hundred milliseconds)
 * before it runs, or is told 503 at once.
 */
const QUEUE_PER_SLOT = 8;

/**
 * Runs password verifications (argon2id: tens of milliseconds of CPU and
 * 19 MiB each) with bounded concurrency and a bounded queue, so that a flood
 * of logins cannot take every core or grow memory: past the queue an attempt
 * is answered 503 with `Retry-After` at once. Concurrent identical attempts
 * (same user, password and hash) share one verification. An account that
 * cannot log in is checked against a dummy hash of the same cost, so that
 * its answer takes as long as a real account's.
 */
export class PasswordVerifier {
  private readonly concurrency: number;
  private readonly maxQueue: number;
  private readonly check: (hash: string, password: string) => Promise<boolean>;
  private readonly dummyHash: Promise<string>;
  private readonly inFlight = new Map<string, Promise<boolean>>();
  private readonly waiting: (() => void)[] = [];
  private running = 0;

  constructor(options: PasswordVerifierOptions = {}) {
    this.concurrency = Math.max(1, options.concurrency ?? availableParallelism());
    this.maxQueue = Math.max(0, options.maxQueue ?? QUEUE_PER_SLOT * this.concurrency);
    this.check = options.verify ?? verifyPassword;
    this.dummyHash =
      options.dummyHash ??
      hashPassword(randomBytes(24).toString('base64'), options.hashOptions ?? DEFAULT_PASSWORD_HASH);
    // Made before anyone waits on it: a failure surfaces at the first login that needs it, not as an unhandled rejection.
    this.dummyHash.catch(() => undefined);
  }

  /**
   * Whether `password` matches `hash`, `name`'s stored hash; with no hash
   * (unknown user, no password, disabled), false after checking the dummy hash.
   * Throws 503 when too many verifications are already waiting.
   */
  async verify(name: string, hash: string | undefined, password: string): Promise<boolean> {
    if (hash === undefined) {
      await this.shared(name, await this.dummyHash, password);
      return false;
    }
    return this.shared(name, hash, password);
  }

  /** Verifications running now (for tests and metrics). */
  get active(): number {
    return this.running;
  }

  /** One verification per (name, hash, password) in flight: a second identical attempt waits on the first. */
  private shared(name: string, hash: string, password: string): Promise<boolean> {
    const key = createHash('sha256').update(`${name}\0${password}\0${hash}`).digest('base64');
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const verification = this.bounded(hash, password).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, verification);
    return verification;
  }

  private async bounded(hash: string, password: string): Promise<boolean> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxQueue) throw serviceUnavailable('too many logins in progress; try again', 1);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await this.check(hash, password);
    } finally {
      // The slot passes straight to the next waiter, so `running` never exceeds the bound.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
