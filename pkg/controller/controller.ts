import type { ApiObject } from '../api/object';
import type { ResourceRef } from '../client/resource';
import type { Logger } from '../util/log';
import type { DeepReadonly } from '../util/deep-freeze';
import type { EventHandler, ObjectEvent } from './event-handler';
import type { Informer } from './informer';
import type { Selectors } from './lister-watcher';
import type { ControllerMetrics } from './metrics';
import { allPass, type Predicate } from './predicates';
import type { RateLimiter } from './rate-limiter';
import type { Reconciler } from './reconciler';
import { ReconcileLoop } from './reconcile-loop';
import type { Runnable } from './runnable';
import type { SharedInformers } from './shared-informers';
import type { WorkQueue } from './workqueue';

/**
 * Where a controller's keys come from: the informer of a resource, which
 * keys an object's events enqueue (default: the object's name), and the
 * predicates an event must pass.
 * @example { resource: PETS, toKeys: (pet) => [pet.spec.owner], predicates: [generationChanged] }
 */
export interface Source<T extends ApiObject = ApiObject> {
  resource: ResourceRef;
  selectors?: Selectors;
  toKeys?: (object: DeepReadonly<T>) => string[];
  predicates?: Predicate<T>[];
}

/** A controller's definition, as the builder checked it. */
export interface ControllerConfig {
  name: string;
  reconciler: Reconciler;
  /** Reconciles that run at once (each on a different key). */
  workers: number;
  sources: Source[];
  rateLimiter?: RateLimiter<string>;
}

/** Hands out the (shared) informer of a resource: `SharedInformers`, or a fake in tests. */
export type InformerProvider = Pick<SharedInformers, 'informerFor'>;

/** What a controller uses from its manager. */
export interface ControllerDeps {
  informers: InformerProvider;
  log: Logger;
  metrics?: ControllerMetrics;
}

/**
 * A running controller: informer events enqueue keys, `workers` loops
 * reconcile them (sample-controller's processNextWorkItem), and the
 * reconciler's outcome decides what happens to the key (see `Reconciler`).
 * Built by `controller(name, manager)…complete(reconciler)`.
 */
export class Controller implements Runnable {
  readonly name: string;
  /** The controller's queue of keys (exposed for metrics and tests). */
  readonly queue: WorkQueue;
  private readonly log: Logger;
  private readonly loop: ReconcileLoop;
  private readonly sources = new Map<Source, (() => void) | undefined>();
  private started = false;
  private stopping: Promise<void> | undefined;

  constructor(
    private readonly config: ControllerConfig,
    private readonly deps: ControllerDeps,
  ) {
    this.name = config.name;
    this.log = deps.log.child({ controller: config.name });
    this.loop = new ReconcileLoop({ ...config, log: this.log, metrics: deps.metrics });
    this.queue = this.loop.queue;
    for (const source of config.sources) this.sources.set(source, undefined);
  }

  /**
   * Subscribes to every source's informer, waits until they are synced (every
   * existing object enqueued once), then starts the workers.
   */
  async start(): Promise<void> {
    if (this.started || this.loop.signal.aborted) return;
    this.started = true;
    this.deps.metrics?.trackQueue(this.name, () => this.queue.len());
    for (const source of this.sources.keys()) this.subscribe(source);
    const informers = [...this.sources.keys()].map((s) => this.informerOf(s));
    await Promise.all(informers.map((i) => i.waitForSync(this.loop.signal)));
    if (this.loop.signal.aborted) return;
    this.loop.start();
    this.log.info({ workers: this.config.workers }, 'controller started');
  }

  /**
   * Adds a source at run time (e.g. one per Model as Models appear); its
   * existing objects are enqueued once the informer is synced. Answers the
   * function that removes it again.
   */
  watch<T extends ApiObject = ApiObject>(source: Source<T>): () => void {
    const entry = source as unknown as Source;
    this.sources.set(entry, undefined);
    if (this.started && !this.loop.signal.aborted) this.subscribe(entry);
    return () => {
      this.sources.get(entry)?.();
      this.sources.delete(entry);
    };
  }

  /**
   * Stops at once: no new reconcile starts, `ctx.signal` of the running ones
   * aborts, queued keys are dropped. Resolves when the running reconciles finished.
   */
  stop(): Promise<void> {
    this.stopping ??= this.shutDown();
    return this.stopping;
  }

  private async shutDown(): Promise<void> {
    const stopped = this.loop.stop();
    for (const unsubscribe of this.sources.values()) unsubscribe?.();
    await stopped;
    this.deps.metrics?.untrackQueue(this.name);
    if (this.started) this.log.info('controller stopped');
  }

  private informerOf(source: Source): Informer {
    return this.deps.informers.informerFor(source.resource, source.selectors);
  }

  private subscribe(source: Source): void {
    const enqueue = (event: ObjectEvent) => {
      if (!allPass(source.predicates ?? [], event)) return;
      const keys = source.toKeys ? source.toKeys(event.object) : [event.object.metadata.name ?? ''];
      for (const key of keys) if (key) this.queue.add(key);
    };
    const handler: EventHandler = {
      onAdd: (object) => enqueue({ type: 'add', object }),
      onUpdate: (old, object) => enqueue({ type: 'update', old, object }),
      onDelete: (object) => enqueue({ type: 'delete', object }),
    };
    this.sources.set(source, this.informerOf(source).addEventHandler(handler));
  }
}
