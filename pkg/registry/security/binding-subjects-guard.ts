import { conflict } from '../../api/errors';
import type { ApiObject } from '../../api/object';
import type { RoleBinding } from '../../auth/rbac';
import type { StoreHooks } from '../resource-store';

/**
 * Wraps the role bindings' hooks: a write may not add to a binding a user who is being deleted (409), so that
 * nothing granted between the user's mark and the end of their cleanup outlives them and passes to a later user of
 * the name. Subjects a binding had already are not checked: the cleanup takes those off.
 */
export function refusingUsersBeingDeleted(hooks: StoreHooks, isBeingDeleted: (user: string) => boolean): StoreHooks {
  const check = (next: ApiObject, current?: ApiObject) => {
    const before = new Set(((current as RoleBinding | undefined)?.subjects ?? []).map((s) => s.name));
    const added = ((next as RoleBinding).subjects ?? []).map((s) => s.name).filter((name) => !before.has(name));
    const deleted = added.find(isBeingDeleted);
    if (deleted !== undefined)
      throw conflict(
        { resource: 'rolebindings', name: next.metadata.name },
        `user "${deleted}" is being deleted: no role can be bound to them`,
      );
  };
  return {
    ...hooks,
    beforeCreate: async (object, ctx) => {
      check(object);
      return hooks.beforeCreate ? hooks.beforeCreate(object, ctx) : object;
    },
    beforeUpdate: async (next, current, ctx) => {
      check(next, current);
      return hooks.beforeUpdate ? hooks.beforeUpdate(next, current, ctx) : next;
    },
  };
}
