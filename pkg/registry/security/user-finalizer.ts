import type { ApiObject } from '../../api/object';
import { USER_CLEANUP_FINALIZER } from '../../auth/user-finalizer';
import type { Logger } from '../../util/log';
import type { ResourceStore, StoreHooks } from '../resource-store';

/**
 * Wraps the users' hooks so that every user not marked for deletion carries the cleanup finalizer: it is added on
 * create and kept on every update (a PUT of a manifest without `finalizers` keeps it), so a user can never be
 * removed before the controller-manager has cleaned up after them. A marked user is left as it is: its finalizer
 * is the controller's to remove, and none may be added once it is marked.
 */
export function withUserFinalizer(hooks: StoreHooks): StoreHooks {
  return {
    ...hooks,
    beforeCreate: async (object, ctx) =>
      withFinalizer(hooks.beforeCreate ? await hooks.beforeCreate(object, ctx) : object),
    beforeUpdate: async (next, current, ctx) =>
      withFinalizer(hooks.beforeUpdate ? await hooks.beforeUpdate(next, current, ctx) : next),
  };
}

/** Adds the finalizer to every stored user that is not marked and lacks it (users stored before it existed). */
export async function ensureUserFinalizers(users: ResourceStore, log: Logger): Promise<void> {
  const { items } = await users.list({});
  for (const user of items) {
    if (user.metadata.deletionTimestamp || user.metadata.finalizers?.includes(USER_CLEANUP_FINALIZER)) continue;
    try {
      // An update with no change: the hook above adds the finalizer; the resourceVersion makes it a compare-and-swap.
      await users.update(user.metadata.name!, user);
      log.info({ user: user.metadata.name }, 'user cleanup finalizer added');
    } catch (err) {
      // Changed or removed meanwhile: whoever wrote it went through the hook, or it is gone.
      if (![404, 409].includes((err as { code?: number }).code ?? 0)) throw err;
    }
  }
}

function withFinalizer(user: ApiObject): ApiObject {
  const finalizers = user.metadata.finalizers ?? [];
  if (user.metadata.deletionTimestamp || finalizers.includes(USER_CLEANUP_FINALIZER)) return user;
  return { ...user, metadata: { ...user.metadata, finalizers: [...finalizers, USER_CLEANUP_FINALIZER] } };
}
