/**
 * The controller runtime (docs/writing-a-controller.md): reconcilers, work queues, informers
 * and their caches, the controller builder, the manager, leader election,
 * and helpers. The ten names most controllers need:
 * `Manager`, `controller`, `Reconciler`, `reconcilerFn`, `TerminalError`,
 * `deletionTimestampSet`, `addFinalizer`, `removeFinalizer`, `updateStatus`, `copyOf`.
 */
export { Manager, LeadershipLostError, type ManagerOptions } from './manager';
export { controller, ControllerBuilder, ControllerConfigError, type SourceOptions } from './builder';
export {
  Controller,
  type ControllerConfig,
  type ControllerDeps,
  type InformerProvider,
  type Source,
} from './controller';
export type { Runnable } from './runnable';
export {
  reconcilerFn,
  TerminalError,
  isTerminalError,
  type Reconciler,
  type Request,
  type ReconcileContext,
  type Result,
} from './reconciler';
export { ReconcileLoop, type ReconcileLoopConfig } from './reconcile-loop';
export { WorkQueue, type WorkQueueOptions } from './workqueue';
export {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  ExponentialRateLimiter,
  MaxOfRateLimiter,
  type RateLimiter,
} from './rate-limiter';
export { Informer, type InformerOptions } from './informer';
export { SharedInformers, type SharedInformerSettings } from './shared-informers';
export { listerWatcherFor, type ListerWatcher, type Selectors, type WatchSettings } from './lister-watcher';
export type { ReadonlyCache } from './cache';
export { onEvent, type EventHandler, type ObjectEvent } from './event-handler';
export { allPass, deletionTimestampSet, generationChanged, resourceVersionChanged, type Predicate } from './predicates';
export { copyOf, deepFreeze, type DeepReadonly } from '../util/deep-freeze';
export { addFinalizer, hasFinalizer, removeFinalizer, type FinalizerChange } from './finalizers';
export { updateStatus, type StatusUpdate } from './status';
export { ownerNames, type OwnerReference } from './owner-references';
export { LeaderElector, type LeaderCallbacks, type LeaderElectionConfig, type LeadershipEnd } from './leader-election';
export { COORDINATION_GROUP, LEASES, type Lease, type LeaseSpec } from './lease-model';
export { ControllerMetrics, type ReconcileOutcome } from './metrics';
export { Backoff, sleep } from '../util/backoff';
