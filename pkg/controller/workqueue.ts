import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter';

/** How a work queue retries: its rate limiter (default: `defaultControllerRateLimiter()`). */
export interface WorkQueueOptions {
  rateLimiter?: RateLimiter<string>;
}

/**
 * A queue of keys (object names), not objects (client-go's workqueue):
 *
 * - A key queued twice is processed once (deduplication).
 * - A key handed out by `get()` is "processing" until `done(key)`; it is never
 *   handed out again meanwhile, so no two workers process one key at once.
 * - A key added while processing is processed again after `done`, once,
 *   however many times it was added.
 * - `addRateLimited` re-adds a key after its rate limiter's delay (per-key
 *   exponential backoff combined with an overall bucket); `forget` resets the
 *   key's backoff once it succeeded. `addAfter` re-adds after a fixed delay,
 *   keeping the earliest of several pending delays.
 * - `shutDown()` ends every `get()` with `undefined` and drops queued and
 *   delayed keys (controllers are level-based: the next start lists every
 *   object again); keys being processed finish. `shutDownWithDrain()` also
 *   waits until they are all `done`.
 * @example
 * for (let key = await queue.get(); key !== undefined; key = await queue.get()) {
 *   try { await sync(key); queue.forget(key); } catch { queue.addRateLimited(key); } finally { queue.done(key); }
 * }
 */
export class WorkQueue {
  private readonly ready = new KeyFifo();
  /** Keys that need processing: queued ones, and ones added again while processing. */
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly delayed = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private readonly getters: ((key: string | undefined) => void)[] = [];
  private readonly drainWaiters: (() => void)[] = [];
  private readonly rateLimiter: RateLimiter<string>;
  private stopping = false;

  constructor(options: WorkQueueOptions = {}) {
    this.rateLimiter = options.rateLimiter ?? defaultControllerRateLimiter<string>();
  }

  /** Queues a key unless it is queued already; ignored after shutdown. */
  add(key: string): void {
    if (this.stopping || this.dirty.has(key)) return;
    this.dirty.add(key);
    if (!this.processing.has(key)) this.handOver(key);
  }

  /** The next key to process, waiting for one; `undefined` once the queue is shut down. */
  get(): Promise<string | undefined> {
    if (this.stopping) return Promise.resolve(undefined);
    const key = this.ready.shift();
    if (key === undefined) return new Promise((resolve) => this.getters.push(resolve));
    this.startProcessing(key);
    return Promise.resolve(key);
  }

  /** Marks a key's processing finished; a key added meanwhile is queued again now. */
  done(key: string): void {
    this.processing.delete(key);
    if (this.dirty.has(key) && !this.stopping) this.handOver(key);
    if (this.processing.size === 0) this.wakeDrainWaiters();
  }

  /** Queues the key after `delayMs`; an earlier pending delay for it wins. */
  addAfter(key: string, delayMs: number): void {
    if (this.stopping) return;
    if (delayMs <= 0) {
      this.add(key);
      return;
    }
    const at = Date.now() + delayMs;
    const pending = this.delayed.get(key);
    if (pending && pending.at <= at) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, delayMs);
    timer.unref();
    this.delayed.set(key, { at, timer });
  }

  /** Queues the key after its rate limiter's delay (its backoff grows with every call until `forget`). */
  addRateLimited(key: string): void {
    if (this.stopping) return;
    this.addAfter(key, this.rateLimiter.when(key));
  }

  /** The key succeeded: reset its backoff. */
  forget(key: string): void {
    this.rateLimiter.forget(key);
  }

  /** How often the key was retried since it was last forgotten. */
  retries(key: string): number {
    return this.rateLimiter.retries(key);
  }

  /** Keys waiting to be handed out (the queue depth metric). */
  len(): number {
    return this.ready.size;
  }

  /** Keys handed out and not yet `done`. */
  inFlight(): number {
    return this.processing.size;
  }

  /** Whether `shutDown` was called. */
  get shuttingDown(): boolean {
    return this.stopping;
  }

  /** Stops handing out keys: pending `get()`s resolve `undefined`, queued and delayed keys are dropped. */
  shutDown(): void {
    if (this.stopping) return;
    this.stopping = true;
    for (const { timer } of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
    this.ready.clear();
    this.dirty.clear();
    for (const resolve of this.getters.splice(0)) resolve(undefined);
    if (this.processing.size === 0) this.wakeDrainWaiters();
  }

  /** `shutDown()`, then waits until every key being processed is `done`. */
  shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Gives the key to a waiting worker, or queues it. */
  private handOver(key: string): void {
    const getter = this.getters.shift();
    if (getter) {
      this.startProcessing(key);
      getter(key);
    } else {
      this.ready.push(key);
    }
  }

  private startProcessing(key: string): void {
    this.dirty.delete(key);
    this.processing.add(key);
  }

  private wakeDrainWaiters(): void {
    for (const resolve of this.drainWaiters.splice(0)) resolve();
  }
}

/** A FIFO of keys with O(1) push and shift (an array with a moving head, compacted now and then). */
class KeyFifo {
  private items: string[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(key: string): void {
    this.items.push(key);
  }

  shift(): string | undefined {
    if (this.head >= this.items.length) return undefined;
    const key = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return key;
  }

  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
