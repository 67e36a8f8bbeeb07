import type { Registry } from 'prom-client';
import type { ApiObject } from '../api/object';
import type { ApiClient } from '../client/api-client';
import type { ResourceRef } from '../client/resource';
import type { Logger } from '../util/log';
import type { ReadonlyCache } from './cache';
import type { ControllerDeps } from './controller';
import { LeaderElector, type LeaderElectionConfig } from './leader-election';
import type { Selectors } from './lister-watcher';
import { ControllerMetrics } from './metrics';
import type { Runnable } from './runnable';
import { SharedInformers, type SharedInformerSettings } from './shared-informers';

/** How a manager runs. */
export interface ManagerOptions {
  client: ApiClient;
  log: Logger;
  /** Where the runtime's metrics go (queue depth, reconciles, leader status); none when absent. */
  metrics?: Registry;
  /** Run the controllers only while this process holds the Lease; absent: always run them. */
  leaderElection?: Omit<LeaderElectionConfig, 'client' | 'log'>;
  informers?: SharedInformerSettings;
}

/** The manager stopped because another process took the lease, or this one could not renew it. */
export class LeadershipLostError extends Error {
  override readonly name = 'LeadershipLostError';
}

/**
 * Holds the controllers (and any other Runnable) of a process and runs them
 * while this process leads (controller-runtime's manager):
 *
 * - `start()` starts the shared informers and every runnable (each waits for
 *   its caches, then runs its workers); with leader election, it campaigns
 *   and does so once elected.
 * - `add()` at any time: a runnable added while running starts at once
 *   (e.g. one controller per Model as Models appear); `remove()` stops one.
 * - `stop()` stops every runnable (their queues drain, running reconciles
 *   finish), then the informers, then gives the lease up.
 * - Losing the lease stops every runnable at once and ends the manager with
 *   a `LeadershipLostError` (from `run`, `done`): the process should exit
 *   and start over as a candidate, as Kubernetes' controller-manager does.
 * @example
 * const manager = new Manager({ client, log, metrics: registry, leaderElection: { leaseName: 'svc-controller-manager', identity } });
 * controller('person-status', manager).for(PERSONS).complete(reconciler);
 * await manager.run(setupSignalHandler());
 */
export class Manager {
  readonly client: ApiClient;
  readonly informers: SharedInformers;
  private readonly log: Logger;
  private readonly metrics: ControllerMetrics | undefined;
  private readonly runnables = new Map<string, Runnable>();
  private readonly elector: LeaderElector | undefined;
  private readonly electorStopper = new AbortController();
  private electorRun: Promise<unknown> | undefined;
  private leading = false;
  private leadingStopped: Promise<void> | undefined;
  private started = false;
  private stopping: Promise<void> | undefined;
  private finish!: (error?: Error) => void;
  /** Settles when the manager has stopped: rejects with `LeadershipLostError` when the lease was lost. */
  readonly done: Promise<void>;

  constructor(private readonly options: ManagerOptions) {
    this.client = options.client;
    this.log = options.log.child({ component: 'controller-manager' });
    this.metrics = options.metrics ? new ControllerMetrics(options.metrics) : undefined;
    this.informers = new SharedInformers(options.client, options.log, options.informers);
    this.done = new Promise<void>((resolve, reject) => {
      this.finish = (error) => (error ? reject(error) : resolve());
    });
    this.done.catch(() => undefined); // observed through run() or by the caller
    if (options.leaderElection) {
      this.elector = new LeaderElector(
        { ...options.leaderElection, client: options.client, log: options.log },
        {
          onStartedLeading: () => void this.startLeading(),
          onStoppedLeading: () => void this.stopLeading(),
          onNewLeader: (holder) => this.log.info({ holder }, 'leader'),
        },
      );
    }
  }

  /** The read-only cache of a resource, from its shared informer (filled once the manager runs). */
  cacheFor<T extends ApiObject = ApiObject>(res: ResourceRef, selectors: Selectors = {}): ReadonlyCache<T> {
    return this.informers.informerFor<T>(res, selectors).cache;
  }

  /** What a controller built for this manager uses (the builder passes it). */
  controllerDeps(): ControllerDeps {
    return { informers: this.informers, log: this.options.log, metrics: this.metrics };
  }

  /** Whether a runnable of that name was added. */
  has(name: string): boolean {
    return this.runnables.has(name);
  }

  /** The names of the runnables, in the order they were added. */
  names(): string[] {
    return [...this.runnables.keys()];
  }

  /** Whether this process runs the controllers now (always true without leader election, once started). */
  isLeader(): boolean {
    return this.leading;
  }

  /** The lease holder this process last saw ('' when released); undefined without leader election. */
  leaderIdentity(): string | undefined {
    return this.elector?.leader();
  }

  /** Adds a runnable; it starts at once when the manager is leading. Throws on a duplicate name. */
  add(runnable: Runnable): void {
    if (this.runnables.has(runnable.name))
      throw new Error(`the manager already has a runnable named "${runnable.name}"`);
    if (this.stopping) throw new Error(`the manager is stopping; cannot add "${runnable.name}"`);
    this.runnables.set(runnable.name, runnable);
    if (this.leading) void this.startRunnable(runnable);
  }

  /** Stops a runnable and forgets it; answers whether there was one of that name. */
  async remove(name: string): Promise<boolean> {
    const runnable = this.runnables.get(name);
    if (!runnable) return false;
    this.runnables.delete(name);
    await runnable.stop();
    return true;
  }

  /**
   * Starts the manager. Without leader election: resolves once every runnable
   * started (caches synced). With it: resolves once campaigning; the
   * runnables start when elected (see `isLeader`).
   */
  async start(): Promise<void> {
    if (this.started) throw new Error('a manager can be started once');
    this.started = true;
    if (!this.elector) {
      await this.startLeading();
      return;
    }
    this.metrics?.leader.set({ lease: this.options.leaderElection!.leaseName }, 0);
    this.electorRun = this.elector.run(this.electorStopper.signal).then((end) => {
      if (end === 'lost')
        void this.shutDown(new LeadershipLostError(`lost the lease "${this.options.leaderElection!.leaseName}"`));
    });
  }

  /** Stops every runnable (draining), the informers, and leader election (giving the lease up). */
  stop(): Promise<void> {
    return this.shutDown();
  }

  /** `start()`, then runs until `signal` aborts (then `stop()`) or the lease is lost (then throws LeadershipLostError). */
  async run(signal: AbortSignal): Promise<void> {
    const onAbort = () => void this.stop();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      if (signal.aborted) return;
      await this.start();
      await this.done;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  private async startLeading(): Promise<void> {
    if (this.stopping) return;
    this.leading = true;
    if (this.elector) this.metrics?.leader.set({ lease: this.options.leaderElection!.leaseName }, 1);
    this.informers.start();
    await Promise.all([...this.runnables.values()].map((r) => this.startRunnable(r)));
  }

  /** Stops every runnable at once (their stop begins synchronously); resolves once they finished. */
  private stopLeading(): Promise<void> {
    if (!this.leading) return this.leadingStopped ?? Promise.resolve();
    this.leading = false;
    if (this.elector) this.metrics?.leader.set({ lease: this.options.leaderElection!.leaseName }, 0);
    const stops = [...this.runnables.values()].map((r) => r.stop());
    this.leadingStopped = Promise.all(stops).then(() => this.informers.stop());
    return this.leadingStopped;
  }

  private async startRunnable(runnable: Runnable): Promise<void> {
    try {
      await runnable.start();
    } catch (err) {
      this.log.error({ err, runnable: runnable.name }, 'a runnable failed to start');
    }
  }

  private shutDown(error?: Error): Promise<void> {
    this.stopping ??= (async () => {
      await this.stopLeading();
      this.electorStopper.abort();
      await this.electorRun;
      this.log.info('manager stopped');
      this.finish(error);
    })();
    return this.stopping;
  }
}
