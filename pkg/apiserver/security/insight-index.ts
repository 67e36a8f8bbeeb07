import type { ApiObject } from '../../api/object';
import { AccessIndex, type IndexedBinding } from '../../auth/insight/access-index';
import type { ImpactWorld } from '../../auth/insight/impact';
import type { RoleBinding } from '../../auth/rbac';
import type { SecurityCache } from '../../registry/security/security-cache';

/**
 * The who-can index of one apiserver, fed from its security cache: seeded
 * with what the cache holds, then told of every role, binding and user change
 * the cache applies (after the cache itself, so the compiled role it reads is
 * the new one).
 */
export function connectAccessIndex(cache: SecurityCache): AccessIndex {
  const index = new AccessIndex();
  for (const role of cache.allRoles()) index.roleChanged(role.metadata.name!, cache.role(role.metadata.name!));
  for (const binding of cache.bindings.values()) index.bindingChanged(binding.metadata.name!, indexedBinding(binding));
  for (const user of cache.users.values()) index.userChanged(user.metadata.name!, isDisabled(user));
  cache.roles.subscribe((name) => index.roleChanged(name, cache.role(name)));
  cache.bindings.subscribe((name, _previous, current) => index.bindingChanged(name, indexedBinding(current)));
  cache.users.subscribe((name, _previous, current) =>
    index.userChanged(name, current !== undefined && isDisabled(current)),
  );
  return index;
}

/** The binding as the index holds it; `undefined` when deleted or marked for deletion (it grants nothing). */
export function indexedBinding(object: ApiObject | undefined): IndexedBinding | undefined {
  const binding = object as RoleBinding | undefined;
  if (binding === undefined || binding.metadata.deletionTimestamp) return undefined;
  return { role: binding.roleRef?.name ?? '', subjects: (binding.subjects ?? []).map((s) => s.name) };
}

/** Disabled, or marked for deletion: the user cannot log in (who-can leaves them out). */
const isDisabled = (user: ApiObject) =>
  (user.spec as { disabled?: boolean } | undefined)?.disabled === true || Boolean(user.metadata.deletionTimestamp);

/** What an impact review reads: the cache's roles and bindings, and the index's users by role. */
export function impactWorld(cache: SecurityCache, index: AccessIndex): ImpactWorld {
  return {
    graph: cache.roleGraph,
    bindingsOf: (user) => cache.bindingsOf(user),
    usersOf: (role) => index.usersOf(role),
    binding: (name) => indexedBinding(cache.bindings.get(name)),
    isDisabled: (user) => index.isDisabled(user),
    userExists: (user) => {
      const object = cache.users.get(user);
      return object !== undefined && !object.metadata.deletionTimestamp;
    },
  };
}
