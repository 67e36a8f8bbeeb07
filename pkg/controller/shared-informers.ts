import type { ApiObject } from '../api/object';
import type { ApiClient } from '../client/api-client';
import { collectionPath, describeResource, type ResourceRef } from '../client/resource';
import type { Logger } from '../util/log';
import { Backoff } from '../util/backoff';
import { Informer } from './informer';
import { listerWatcherFor, type Selectors } from './lister-watcher';

/** Settings every informer of a factory shares. */
export interface SharedInformerSettings {
  /** Periodic resync (default none). */
  resyncPeriodMs?: number;
  /** Ask the server to end each watch after this long (default the server's timeout). */
  watchTimeoutSeconds?: number;
  /** A fresh backoff for each informer (default 250 ms doubling to 30 s). */
  backoff?: () => Backoff;
}

/**
 * One informer per resource and selectors, shared by every controller that
 * asks for it (client-go's shared informer factory). Informers asked for
 * after `start()` start at once, so that a controller can follow resources
 * that appear at run time (e.g. one per Model); `remove` stops one.
 */
export class SharedInformers {
  private readonly informers = new Map<string, Informer>();
  private started = false;

  constructor(
    private readonly client: ApiClient,
    private readonly log: Logger,
    private readonly settings: SharedInformerSettings = {},
  ) {}

  /** The informer of a resource (with these selectors), created on first use; started when the factory is. */
  informerFor<T extends ApiObject = ApiObject>(res: ResourceRef, selectors: Selectors = {}): Informer<T> {
    const key = keyOf(res, selectors);
    let informer = this.informers.get(key);
    if (!informer) {
      const source = listerWatcherFor(this.client, res, selectors, {
        timeoutSeconds: this.settings.watchTimeoutSeconds,
      });
      informer = new Informer(source, {
        name: describeResource(res),
        log: this.log,
        resyncPeriodMs: this.settings.resyncPeriodMs,
        backoff: this.settings.backoff?.(),
      });
      this.informers.set(key, informer);
      if (this.started) informer.start();
    }
    return informer as unknown as Informer<T>;
  }

  /** Whether an informer exists for the resource and selectors. */
  has(res: ResourceRef, selectors: Selectors = {}): boolean {
    return this.informers.has(keyOf(res, selectors));
  }

  /** The names of the running informers whose first list has not been applied yet. */
  unsynced(): string[] {
    return [...this.informers.values()].filter((i) => i.isRunning() && !i.hasSynced()).map((i) => i.name);
  }

  /** Starts every informer, and every one created from now on. */
  start(): void {
    this.started = true;
    for (const informer of this.informers.values()) informer.start();
  }

  /** Stops and forgets one informer (its subscribers get no more events). */
  async remove(res: ResourceRef, selectors: Selectors = {}): Promise<void> {
    const key = keyOf(res, selectors);
    const informer = this.informers.get(key);
    this.informers.delete(key);
    await informer?.stop();
  }

  /** Stops every informer. */
  async stop(): Promise<void> {
    this.started = false;
    await Promise.all([...this.informers.values()].map((i) => i.stop()));
  }
}

const keyOf = (res: ResourceRef, s: Selectors) =>
  `${collectionPath(res)}?l=${s.labelSelector ?? ''}&f=${s.fieldSelector ?? ''}`;
