import type { ApiObject } from '../../pkg/api/object';
import { describeResource, type ResourceRef } from '../../pkg/client';
import {
  Backoff,
  controller,
  deletionTimestampSet,
  sleep,
  type DeepReadonly,
  type Manager,
  type Runnable,
} from '../../pkg/controller';
import type { Logger } from '../../pkg/util/log';
import { notARemoval, withoutFinalizers } from './collectable';
import { GarbageCollectReconciler } from './reconciler';
import { collectableResources, collectorName, MODELS, resourceOfModel } from './resources';

/** The name the controller-manager runs the gc controller by: `--controllers gc`. */
export const GC_CONTROLLER = 'gc';

/** How the gc controller runs. */
export interface GarbageCollectorOptions {
  /** Removals in flight at once, per resource (default 8). */
  workers?: number;
  /** Delays between discovery attempts while the apiserver does not answer (default 250 ms doubling to 10 s). */
  discoveryBackoff?: Backoff;
}

const DEFAULT_WORKERS = 8;

/**
 * The gc controller (docs/controllers.md): removes every object, of every model,
 * that is marked for deletion and holds no finalizers.
 *
 * It runs one controller per resource, named `gc/<plural>.<group>`, each with
 * its own queue of object names and its own workers: the runtime's requests
 * carry only a name, so a per-resource controller needs no key encoding, and
 * a resource's controller can be started and stopped on its own as Models
 * come and go. The resources are:
 *
 * - those the apiserver serves when the gc starts (discovery), the platform
 *   kinds included (Models, Leases: a marked Model is collected too);
 * - every Model that appears later (it follows `models` through the shared
 *   informer); a Model marked for deletion or removed stops its resource's
 *   controller (the apiserver stops serving it at the mark). The shared
 *   informer itself stays, since other controllers may subscribe to it.
 *
 * Each controller's informer lists at start, so objects marked while no gc
 * ran are collected then.
 * @example
 * manager.add(new GarbageCollector(manager, log));
 */
export class GarbageCollector implements Runnable {
  readonly name = GC_CONTROLLER;
  private readonly workers: number;
  private readonly log: Logger;
  private readonly discoveryBackoff: Backoff;
  private readonly stopper = new AbortController();
  /** The resource each running per-resource controller collects, by `<plural>.<group>`. */
  private readonly collecting = new Map<string, ResourceRef>();
  /** Starting and stopping controllers happens one change at a time, in order. */
  private changes: Promise<void> = Promise.resolve();
  private unfollowModels: (() => void) | undefined;
  private started = false;

  constructor(
    private readonly manager: Manager,
    log: Logger,
    options: GarbageCollectorOptions = {},
  ) {
    this.workers = options.workers ?? DEFAULT_WORKERS;
    if (!Number.isInteger(this.workers) || this.workers < 1)
      throw new Error(`gc workers must be an integer ≥ 1, got ${this.workers}`);
    this.discoveryBackoff = options.discoveryBackoff ?? new Backoff(250, 10_000);
    this.log = log.child({ controller: GC_CONTROLLER });
  }

  /**
   * Learns the served resources (retrying until the apiserver answers),
   * starts a controller for each, and follows Models from then on. Resolves
   * once those controllers are added (each starts its workers once its cache is synced).
   */
  async start(): Promise<void> {
    if (this.started || this.stopper.signal.aborted) return;
    this.started = true;
    const served = await this.discover(this.stopper.signal);
    if (this.stopper.signal.aborted) return;
    for (const res of served) this.change(() => this.collect(res));
    this.unfollowModels = this.manager.informers.informerFor(MODELS).addEventHandler({
      onAdd: (model) => this.onModel(model),
      onUpdate: (_old, model) => this.onModel(model),
      onDelete: (model) => this.onModelGone(model),
    });
    await this.changes;
    this.log.info({ resources: this.collecting.size }, 'gc started');
  }

  /** Stops following Models and stops every per-resource controller (their in-flight removals finish). */
  async stop(): Promise<void> {
    this.stopper.abort();
    this.unfollowModels?.();
    this.unfollowModels = undefined;
    await this.changes;
    const names = [...this.collecting.values()].map(collectorName);
    this.collecting.clear();
    await Promise.all(names.map((name) => this.manager.remove(name)));
  }

  private async discover(signal: AbortSignal): Promise<ResourceRef[]> {
    while (!signal.aborted) {
      try {
        return collectableResources(await this.manager.client.discover({ signal }));
      } catch (err) {
        if (signal.aborted) break;
        const delayMs = this.discoveryBackoff.next();
        this.log.warn({ err, delayMs }, 'discovery failed; retrying');
        await sleep(delayMs, signal);
      }
    }
    return [];
  }

  private onModel(model: DeepReadonly<ApiObject>): void {
    if (model.metadata.deletionTimestamp) {
      this.onModelGone(model);
      return;
    }
    const res = resourceOfModel(model);
    if (res) this.change(() => this.collect(res));
  }

  private onModelGone(model: DeepReadonly<ApiObject>): void {
    const res = resourceOfModel(model);
    if (res) this.change(() => this.release(res));
  }

  /** Queues a change behind the previous ones; a failure is logged, never blocks the next. */
  private change(step: () => Promise<void>): void {
    this.changes = this.changes
      .then(step)
      .catch((err: unknown) => this.log.error({ err }, 'could not change what the gc collects'));
  }

  /** Starts the controller of a resource, unless one runs already (one of another version is replaced). */
  private async collect(res: ResourceRef): Promise<void> {
    if (this.stopper.signal.aborted) return;
    const current = this.collecting.get(describeResource(res));
    if (current?.version === res.version) return;
    if (current) await this.release(current);
    controller(collectorName(res), this.manager)
      .for(res, { predicates: [deletionTimestampSet, withoutFinalizers, notARemoval] })
      .workers(this.workers)
      .complete(new GarbageCollectReconciler(this.manager.client, res, this.manager.cacheFor(res)));
    this.collecting.set(describeResource(res), res);
    this.log.info({ resource: describeResource(res), version: res.version }, 'collecting');
  }

  /** Stops the controller of a resource, when it is the version given. */
  private async release(res: ResourceRef): Promise<void> {
    const key = describeResource(res);
    if (this.collecting.get(key)?.version !== res.version) return;
    this.collecting.delete(key);
    await this.manager.remove(collectorName(res));
    this.log.info({ resource: key, version: res.version }, 'no longer collecting');
  }
}
