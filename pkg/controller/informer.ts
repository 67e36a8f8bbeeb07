import type { ApiObject } from '../api/object';
import { isExpired, isResourceVersionTooLarge } from '../client/errors';
import type { WatchEvent } from '../client/types';
import type { Logger } from '../util/log';
import { Backoff, sleep } from '../util/backoff';
import { ObjectCache, type ReadonlyCache } from './cache';
import type { EventHandler } from './event-handler';
import { deepFreeze, type DeepReadonly } from '../util/deep-freeze';
import type { ListerWatcher } from './lister-watcher';

/** How an informer runs. */
export interface InformerOptions {
  /** For logs, e.g. `persons.example.com`. */
  name: string;
  log: Logger;
  /** Delays between restarts after errors; default 250 ms doubling to 30 s, with jitter. */
  backoff?: Backoff;
  /** Send every cached object to `onUpdate` this often (default: never). */
  resyncPeriodMs?: number;
}

/** A watch that delivered nothing and ended within this long counts as a failure (backs off before the next). */
const HEALTHY_WATCH_MS = 1000;

/**
 * Keeps a cache of one resource in step with the server (client-go's
 * reflector and informer in one):
 *
 * - lists, then watches from the list's `resourceVersion`;
 * - when the server ends a watch or the connection drops, watches again from
 *   the last `resourceVersion` it saw (a BOOKMARK moves it too);
 * - when that is too old (410 Expired), lists again and tells the handlers
 *   what changed meanwhile: adds, updates (changed `resourceVersion`), and
 *   deletes for objects that vanished;
 * - after any other error, starts over from the same point after a backoff;
 *   it never stops until `stop()`.
 *
 * Every object present at start-up reaches the handlers once as an add; a
 * handler added later gets an add for every cached object first.
 * @example
 * const informer = new Informer(listerWatcherFor(client, PERSONS), { name: 'persons', log });
 * informer.addEventHandler({ onAdd: (p) => queue.add(p.metadata.name!) });
 * informer.start();
 * await informer.waitForSync();
 */
/** What the informer's restart loop carries from one try to the next. */
interface RestartState {
  /** The cache must be listed again before the next watch (at start, and after a 410). */
  needList: boolean;
  /** 410 Expired answers in a row. */
  expiredInARow: number;
}

export class Informer<T extends ApiObject = ApiObject> {
  private readonly store = new ObjectCache<T>();
  private readonly handlers = new Set<EventHandler<T>>();
  private readonly stopper = new AbortController();
  private readonly log: Logger;
  private readonly backoff: Backoff;
  private readonly syncWaiters = new Set<() => void>();
  private running: Promise<void> | undefined;
  private resyncTimer: NodeJS.Timeout | undefined;
  private synced = false;
  private revision = '';

  constructor(
    private readonly source: ListerWatcher<T>,
    private readonly options: InformerOptions,
  ) {
    this.log = options.log.child({ informer: options.name });
    this.backoff = options.backoff ?? new Backoff();
  }

  /** The objects, read-only. */
  get cache(): ReadonlyCache<T> {
    return this.store;
  }

  /** The `resourceVersion` the informer will watch from next ('' before the first list). */
  get resourceVersion(): string {
    return this.revision;
  }

  /** What it informs about, e.g. `persons.example.com` (for logs and readiness). */
  get name(): string {
    return this.options.name;
  }

  /** Whether the first list has been applied. */
  hasSynced(): boolean {
    return this.synced;
  }

  /** Whether `start()` was called and `stop()` was not. */
  isRunning(): boolean {
    return this.running !== undefined && !this.stopper.signal.aborted;
  }

  /**
   * Subscribes a handler; when the cache is synced already, it first gets an
   * add for every cached object. Returns the unsubscribe function.
   */
  addEventHandler(handler: EventHandler<T>): () => void {
    this.handlers.add(handler);
    if (this.synced) for (const object of this.store.list()) this.call(handler, 'onAdd', object);
    return () => this.handlers.delete(handler);
  }

  /** Starts listing and watching in the background. Starting twice is a no-op; a stopped informer cannot restart. */
  start(): void {
    if (this.running || this.stopper.signal.aborted) return;
    this.running = this.run();
  }

  /** Resolves true once synced, or false when `signal` aborts or the informer stops first. */
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

  /** Ends the watch and the restart loop; the cache stays readable. */
  async stop(): Promise<void> {
    this.stopper.abort();
    clearInterval(this.resyncTimer);
    await this.running;
  }

  private async run(): Promise<void> {
    const signal = this.stopper.signal;
    const state: RestartState = { needList: true, expiredInARow: 0 };
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

  /**
   * Logs a failed list or watch and waits before the next try. A 410 asks for a list, and so does a
   * revision the server has not reached (its data was reset: waiting for that revision could miss everything).
   */
  private async afterFailure(err: unknown, state: RestartState, signal: AbortSignal): Promise<void> {
    const expired = isExpired(err) || isResourceVersionTooLarge(err);
    state.needList ||= expired;
    state.expiredInARow = expired ? state.expiredInARow + 1 : 0;
    // The first 410 relists at once; anything else (or 410s in a row) waits its backoff.
    const delayMs = state.expiredInARow === 1 ? 0 : this.backoff.next();
    if (expired) this.log.info({ resourceVersion: this.revision, delayMs }, 'resourceVersion expired; listing again');
    else this.log.warn({ err, delayMs }, state.needList ? 'list failed; retrying' : 'watch failed; resuming');
    await sleep(delayMs, signal);
  }

  /** Lists and reconciles the cache with the list, then marks the informer synced. */
  private async relist(signal: AbortSignal): Promise<void> {
    const list = await this.source.list(signal);
    if (signal.aborted) return;
    const seen = new Set<string>();
    for (const item of list.items) {
      seen.add(item.metadata.name ?? '');
      this.upsert(item);
    }
    for (const name of this.store.names()) {
      if (seen.has(name)) continue;
      const gone = this.store.remove(name);
      if (gone) this.notify('onDelete', gone);
    }
    this.revision = list.resourceVersion;
    this.markSynced();
  }

  /** One watch from the current revision; answers whether it was healthy (delivered something or lasted). */
  private async watchOnce(signal: AbortSignal): Promise<boolean> {
    const started = Date.now();
    let events = 0;
    const stream = await this.source.watch(this.revision, signal);
    for await (const event of stream) {
      if (events++ === 0) this.backoff.reset(); // progress: a later failure starts its backoff afresh
      this.apply(event);
    }
    return events > 0 || Date.now() - started >= HEALTHY_WATCH_MS;
  }

  private apply(event: WatchEvent<T>): void {
    const revision = event.object.metadata?.resourceVersion;
    switch (event.type) {
      case 'ADDED':
      case 'MODIFIED':
        this.upsert(event.object);
        break;
      case 'DELETED':
        if (this.store.remove(event.object.metadata.name ?? '')) this.notify('onDelete', deepFreeze(event.object));
        break;
      case 'BOOKMARK':
        break;
    }
    if (revision) this.revision = revision;
  }

  private upsert(item: T): void {
    const { object, previous } = this.store.put(item);
    if (!previous) this.notify('onAdd', object);
    else if (previous.metadata.resourceVersion !== object.metadata.resourceVersion)
      this.notify('onUpdate', object, previous);
  }

  private markSynced(): void {
    if (this.synced) return;
    this.synced = true;
    this.log.debug({ objects: this.store.size(), resourceVersion: this.revision }, 'synced');
    for (const wake of [...this.syncWaiters]) wake();
    if (this.options.resyncPeriodMs) {
      this.resyncTimer = setInterval(() => this.resync(), this.options.resyncPeriodMs);
      this.resyncTimer.unref();
    }
  }

  private resync(): void {
    for (const object of this.store.list()) this.notify('onUpdate', object, object);
  }

  private notify(kind: keyof EventHandler<T>, object: DeepReadonly<T>, old?: DeepReadonly<T>): void {
    for (const handler of this.handlers) this.call(handler, kind, object, old);
  }

  /** Calls one handler; a handler that throws is logged, never allowed to stop the informer. */
  private call(
    handler: EventHandler<T>,
    kind: keyof EventHandler<T>,
    object: DeepReadonly<T>,
    old?: DeepReadonly<T>,
  ): void {
    try {
      if (kind === 'onUpdate') handler.onUpdate?.(old ?? object, object);
      else handler[kind]?.(object);
    } catch (err) {
      this.log.error({ err, event: kind, name: object.metadata.name }, 'event handler failed');
    }
  }
}
