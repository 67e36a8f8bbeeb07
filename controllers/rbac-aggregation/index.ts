import type { Role } from '../../pkg/auth/rbac';
import type { ApiClient } from '../../pkg/client';
import { controller, type Controller, type Manager } from '../../pkg/controller';
import { RoleAggregationReconciler } from './reconciler';
import { RoleIndex } from './role-index';
import { MODELS, ROLES } from './roles';

/**
 * The role-aggregation controller: writes each Role's effective rules (its
 * own, its dependencies', and those of the roles aggregated into it,
 * transitively) into its `status`, which the apiserver enforces.
 */
export { aggregatedStatus, RoleAggregationReconciler } from './reconciler';
export { RoleIndex } from './role-index';
export { ROLES } from './roles';

/** The name the controller-manager runs it by: `--controllers rbac-aggregation`. */
export const RBAC_AGGREGATION_CONTROLLER = 'rbac-aggregation';

/**
 * Adds the role-aggregation controller to a manager. Every role event queues
 * the role and every role whose effective rules it may change (see
 * `RoleIndex.keysFor`); at start, every role is queued once.
 * @example
 * register(manager);
 * await manager.run(signal);
 */
export function register(manager: Manager, client: ApiClient = manager.client): Controller {
  const roles = manager.cacheFor<Role>(ROLES);
  const index = new RoleIndex(roles);
  // `for` queues the changed role; `watches` feeds the index (which must see each event exactly once) and
  // queues the roles that include it. Both hear the same informer, in the same synchronous notification.
  return (
    controller(RBAC_AGGREGATION_CONTROLLER, manager)
      .for(ROLES)
      .watches<Role>(ROLES, (role) => index.keysFor(role.metadata.name!))
      // A model written or removed: the roles with conditional rules look again at what their conditions grant.
      .watches(MODELS, () =>
        roles
          .list()
          .filter((role) => role.status?.rules?.some((rule) => rule.where !== undefined))
          .map((role) => role.metadata.name!),
      )
      .workers(2)
      .complete(new RoleAggregationReconciler(client, roles, index.graph))
  );
}
