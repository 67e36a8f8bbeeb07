import type { ApiObject } from '../api/object';
import { Reflector, type ReflectorSource } from '../cache/reflector';
import type { StoreChange } from '../cache/object-store';
import { isExpired, isResourceVersionTooLarge } from '../client/errors';
import type { Logger } from '../util/log';
import type { Backoff } from '../util/backoff';
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

/**
 * Keeps a cache of one resource in step with the server (client-go's
 * informer, over the reflector of ../cache/reflector.ts):
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
export class Informer<T extends ApiObject = ApiObject> {
  private readonly reflector: Reflector<T>;
  private readonly store: ObjectCache<T>;
  private readonly handlers = new Set<EventHandler<T>>();
  private readonly log: Logger;

  constructor(
    source: ListerWatcher<T>,
    private readonly options: InformerOptions,
  ) {
    this.log = options.log.child({ informer: options.name });
    this.reflector = new Reflector(reflectorSource(source), {
      log: this.log,
      backoff: options.backoff,
      resyncPeriodMs: options.resyncPeriodMs,
      keep: (object) => deepFreeze(object) as T,
    });
    this.store = new ObjectCache(this.reflector.store);
    this.reflector.subscribe((change) => this.dispatch(change));
  }

  /** The objects, read-only. */
  get cache(): ReadonlyCache<T> {
    return this.store;
  }

  /** The `resourceVersion` the informer will watch from next ('' before the first list). */
  get resourceVersion(): string {
    return this.reflector.revision;
  }

  /** What it informs about, e.g. `persons.example.com` (for logs and readiness). */
  get name(): string {
    return this.options.name;
  }

  /** Whether the first list has been applied. */
  hasSynced(): boolean {
    return this.reflector.hasSynced();
  }

  /** Whether `start()` was called and `stop()` was not. */
  isRunning(): boolean {
    return this.reflector.isRunning();
  }

  /**
   * Subscribes a handler; when the cache is synced already, it first gets an
   * add for every cached object. Returns the unsubscribe function.
   */
  addEventHandler(handler: EventHandler<T>): () => void {
    this.handlers.add(handler);
    if (this.hasSynced()) for (const object of this.store.list()) this.call(handler, 'onAdd', object);
    return () => this.handlers.delete(handler);
  }

  /** Starts listing and watching in the background. Starting twice is a no-op; a stopped informer cannot restart. */
  start(): void {
    this.reflector.start();
  }

  /** Resolves true once synced, or false when `signal` aborts or the informer stops first. */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    return this.reflector.waitForSync(signal);
  }

  /** Ends the watch and the restart loop; the cache stays readable. */
  async stop(): Promise<void> {
    await this.reflector.stop();
  }

  /** A change of the cache as the handlers hear of it; objects are frozen (the store keeps them so). */
  private dispatch(change: StoreChange<T>): void {
    const frozen = (object: T) => object as DeepReadonly<T>;
    for (const handler of this.handlers) {
      if (change.type === 'added') this.call(handler, 'onAdd', frozen(change.object));
      else if (change.type === 'updated')
        this.call(handler, 'onUpdate', frozen(change.object), frozen(change.previous));
      else this.call(handler, 'onDelete', frozen(change.last));
    }
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

/**
 * A ListerWatcher as a reflector's source: a 410 Expired, and a revision the server has not reached (its data was
 * reset: waiting for that revision could miss everything), both ask for a list.
 */
function reflectorSource<T extends ApiObject>(source: ListerWatcher<T>): ReflectorSource<T> {
  return {
    list: async (signal) => {
      const list = await source.list(signal);
      return { items: list.items, revision: list.resourceVersion };
    },
    watch: async (revision, onEvent, signal) => {
      for await (const event of await source.watch(revision, signal)) onEvent(event);
    },
    isExpired: (err) => isExpired(err) || isResourceVersionTooLarge(err),
  };
}
