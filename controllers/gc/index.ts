import type { Manager } from '../../pkg/controller';
import type { Logger } from '../../pkg/util/log';
import { GarbageCollector, type GarbageCollectorOptions } from './garbage-collector';

/**
 * The gc controller (docs/controllers.md): removes every object, of every model,
 * marked for deletion and without finalizers. See GarbageCollector.
 */
export { GarbageCollector, GC_CONTROLLER, type GarbageCollectorOptions } from './garbage-collector';
export { GarbageCollectReconciler } from './reconciler';
export { isCollectable, notARemoval, withoutFinalizers } from './collectable';
export { collectableResources, collectorName, MODELS, resourceOfModel } from './resources';

/**
 * Adds the gc controller to a manager; it runs while the manager leads.
 * @example
 * const manager = new Manager({ client, log, leaderElection });
 * register(manager, logger);
 * await manager.run(setupSignalHandler());
 */
export function register(manager: Manager, log: Logger, options: GarbageCollectorOptions = {}): GarbageCollector {
  const gc = new GarbageCollector(manager, log, options);
  manager.add(gc);
  return gc;
}
