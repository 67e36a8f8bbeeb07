import type { ApiObject } from '../api/object';
import { Backoff, sleep } from '../util/backoff';
import type { Logger } from '../util/log';
import { ObjectStore, type StoreChange } from './object-store';
import { RevisionWaiters } from './revision-waiters';

/** One change a watch reports; a BOOKMARK carries only a `resourceVersion` to resume from. */
export interface SourceEvent<T extends ApiObject> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';
  object: T;
}

/** What a reflector lists and watches: over HTTP (the controller runtime) or over storage (the apiserver). */
export interface ReflectorSource<T extends ApiObject> {
  /** Every object, and the revision the list was read at. */
  list(signal: AbortSignal): Promise<{ items: T[]; revision: string }>;
  /**
   * Calls `onEvent` for each change after `revision`, in order; resolves when the watch ends without an error
   * (the server closed it, or `signal` aborted), rejects when it fails.
   */
  watch(revision: string, onEvent: (event: SourceEvent<T>) => void, signal: AbortSignal): Promise<void>;
  /** Whether an error means the revision can no longer be watched from (410 Expired, or one the source never reached). */
  isExpired(err: unknown): boolean;
}

export interface ReflectorOptions<T extends ApiObject> {
  log: Logger;
  /** Delays between tries after errors; default 250 ms doubling to 30 s, with jitter. */
  backoff?: Backoff;
  /** Tell subscribers of every held object as an update (`previous === object`) this often, once synced. */
  resyncPeriodMs?: number;
  /** What the store holds of each object (e.g. a frozen copy); default the object itself. */
  keep?: (object: T) => T;
}

/** A watch that delivered nothing and ended within this long counts as a failure (backs off before the next). */
const HEALTHY_WATCH_MS = 1000;

/** What the restart loop carries from one try to the next. */
interface RestartState {
  /** The store must be listed again before the next watch (at start, and after an expiry). */
  needList: boolean;
  /** Expiries in a row. */
  expiredInARow: number;
}

/**
 * Keeps a store of one resource in step with a source (client-go's reflector), with one recovery policy:
 *
 * - lists, then watches from the list's revision, moving the revision with every event (and bookmark);
 * - a watch that ends is opened again from the last revision; one that ended at once, empty, backs off first;
 * - an expired revision relists at once (the first time in a row), telling subscribers what changed meanwhile:
 *   adds, updates (a changed `resourceVersion`), deletes of what vanished;
 * - any other error retries the same step (list or watch) after a backoff with jitter, reset by progress;
 *   it never gives up until `stop()`, after which nothing more is applied.
 *
 * Subscribers are told of every change, in order; one that throws is logged and the others still hear.
 */
export class Reflector<T extends ApiObject> {
  readonly store: ObjectStore<T>;
  private readonly listeners = new Set<(change: StoreChange<T>) => void>();
  private readonly waiters = new RevisionWaiters();
  private readonly syncWaiters = new Set<() => void>();
  private readonly stopper = new AbortController();
  private readonly backoff: Backoff;
  private running: Promise<void> | undefined;
  private resyncTimer: NodeJS.Timeout | undefined;
  private synced = false;
  private current = '';

  constructor(
    private readonly source: ReflectorSource<T>,
    private readonly options: ReflectorOptions<T>,
  ) {
    this.store = new ObjectStore<T>(options.keep);
    this.backoff = options.backoff ?? new Backoff();
  }

  /** The revision the store has caught up with ('' before the first list). */
  get revision(): string {
    return this.current;
  }

  /** Whether a list has been applied. */
  hasSynced(): boolean {
    return this.synced;
  }

  /** Whether `start()` was called and `stop()` was not. */
  isRunning(): boolean {
    return this.running !== undefined && !this.stopper.signal.aborted;
  }

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: (change: StoreChange<T>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Lists once, now, and applies it; throws what the list throws. For a caller that must not go on without the
   * objects (a server starting), before `start()`, which then only watches.
   */
  async listNow(): Promise<void> {
    await this.relist(this.stopper.signal);
  }

  /** Lists (unless `listNow` did) and watches in the background. Twice is a no-op; a stopped reflector stays stopped. */
  start(): void {
    if (this.running || this.stopper.signal.aborted) return;
    this.running = this.run();
  }

  /** Resolves true once synced, or false when `signal` aborts or the reflector stops first. */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    if (signal?.aborted || this.stopper.signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const finish = (value: boolean) => {
        this.syncWaiters.delete(onSync);
        signal?.removeEventListener('abort', onAbort);
        this.stopper.signal.removeEventListener('abort', onAbort);
        resolve(value);
      };
      const onSync = () => finish(true);
      const onAbort = () => finish(false);
      this.syncWaiters.add(onSync);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.stopper.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * Resolves true once the store has applied the changes up to `revision` (a decimal revision; anything else,
   * or none, counts as reached), false after `timeoutMs` or when the reflector stops.
   */
  waitForRevision(revision: string | undefined, timeoutMs: number): Promise<boolean> {
    if (this.stopper.signal.aborted) return Promise.resolve(false);
    return this.waiters.wait(this.current, revision, timeoutMs);
  }

  /** Ends the watch and the restart loop; the store stays readable and changes no more. */
  async stop(): Promise<void> {
    this.stopper.abort();
    clearInterval(this.resyncTimer);
    this.waiters.cancelAll();
    await this.running;
  }

  private async run(): Promise<void> {
    const signal = this.stopper.signal;
    const state: RestartState = { needList: !this.synced, expiredInARow: 0 };
    while (!signal.aborted) {
      try {
        await this.listAndWatch(signal, state);
      } catch (err) {
        if (signal.aborted) break;
        await this.afterFailure(err, state, signal);
      }
    }
  }

  /** Lists when needed, then watches once; after an unhealthy watch, waits its backoff. */
  private async listAndWatch(signal: AbortSignal, state: RestartState): Promise<void> {
    if (state.needList) {
      await this.relist(signal);
      state.needList = false;
    }
    const healthy = await this.watchOnce(signal);
    state.expiredInARow = 0;
    if (healthy) this.backoff.reset();
    else await sleep(this.backoff.next(), signal);
  }

  /** Logs a failed list or watch and waits before the next try; an expired revision asks for a list. */
  private async afterFailure(err: unknown, state: RestartState, signal: AbortSignal): Promise<void> {
    const expired = this.source.isExpired(err);
    state.needList ||= expired;
    state.expiredInARow = expired ? state.expiredInARow + 1 : 0;
    // The first expiry relists at once; anything else (or expiries in a row) waits its backoff.
    const delayMs = state.expiredInARow === 1 ? 0 : this.backoff.next();
    const log = this.options.log;
    if (expired) log.info({ resourceVersion: this.current, delayMs }, 'resourceVersion expired; listing again');
    else log.warn({ err, delayMs }, state.needList ? 'list failed; retrying' : 'watch failed; resuming');
    await sleep(delayMs, signal);
  }

  /** Lists and makes the store hold exactly the list, then marks the reflector synced. */
  private async relist(signal: AbortSignal): Promise<void> {
    const list = await this.source.list(signal);
    if (signal.aborted) return;
    for (const change of this.store.replace(list.items)) this.notify(change);
    this.advance(list.revision);
    this.markSynced();
  }

  /** One watch from the current revision; answers whether it was healthy (delivered something or lasted). */
  private async watchOnce(signal: AbortSignal): Promise<boolean> {
    const started = Date.now();
    let events = 0;
    await this.source.watch(
      this.current,
      (event) => {
        if (signal.aborted) return;
        if (events++ === 0) this.backoff.reset(); // progress: a later failure starts its backoff afresh
        this.apply(event);
      },
      signal,
    );
    return events > 0 || Date.now() - started >= HEALTHY_WATCH_MS;
  }

  private apply(event: SourceEvent<T>): void {
    let change: StoreChange<T> | undefined;
    if (event.type === 'ADDED' || event.type === 'MODIFIED') change = this.store.put(event.object);
    else if (event.type === 'DELETED') change = this.store.delete(event.object);
    if (change) this.notify(change);
    const revision = event.object.metadata?.resourceVersion;
    if (revision) this.advance(revision);
  }

  private advance(revision: string): void {
    this.current = revision;
    this.waiters.advance(revision);
  }

  private markSynced(): void {
    if (this.synced) return;
    this.synced = true;
    this.options.log.debug({ objects: this.store.size(), resourceVersion: this.current }, 'synced');
    for (const wake of [...this.syncWaiters]) wake();
    if (this.options.resyncPeriodMs) {
      this.resyncTimer = setInterval(() => this.resync(), this.options.resyncPeriodMs);
      this.resyncTimer.unref();
    }
  }

  private resync(): void {
    for (const object of [...this.store.values()]) {
      this.notify({ type: 'updated', name: object.metadata.name ?? '', previous: object, object });
    }
  }

  /** Tells every subscriber; one that throws is logged, never allowed to stop the reflector or the others. */
  private notify(change: StoreChange<T>): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (err) {
        this.options.log.error({ err, event: change.type, name: change.name }, 'change listener failed');
      }
    }
  }
}
