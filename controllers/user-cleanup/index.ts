import type { ApiObject } from '../../pkg/api/object';
import type { ApiClient } from '../../pkg/client';
import { controller, type Controller, type Manager } from '../../pkg/controller';
import { UserCleanupReconciler } from './reconciler';
import { USERS } from './resources';

/**
 * The user-cleanup controller: when a user is deleted, removes their password, their personal access tokens and
 * their role-binding entries, then the finalizer that held the user back. See UserCleanupReconciler.
 */
export { UserCleanupReconciler } from './reconciler';
export { passwordPath, ROLE_BINDINGS, TOKENS, USERS } from './resources';

/** The name the controller-manager runs it by: `--controllers user-cleanup`. */
export const USER_CLEANUP_CONTROLLER = 'user-cleanup';

/**
 * Adds the user-cleanup controller to a manager; it runs while the manager leads. Every user is queued at start,
 * so users marked while no controller-manager ran are cleaned up then.
 * @example
 * register(manager);
 * await manager.run(signal);
 */
export function register(manager: Manager, client: ApiClient = manager.client): Controller {
  return controller(USER_CLEANUP_CONTROLLER, manager)
    .for(USERS)
    .complete(new UserCleanupReconciler(client, manager.cacheFor<ApiObject>(USERS)));
}
