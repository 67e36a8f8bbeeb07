import { forbidden, invalid, type StatusCause } from '../../api/errors';
import type { ApiObject } from '../../api/object';
import type { RequestAttributes } from '../../auth/attributes';
import { SUPER_ROLE, type RoleBinding } from '../../auth/rbac';
import type { UserInfo } from '../../auth/user';
import type { Logger } from '../../util/log';
import type { ResourceStore } from '../resource-store';
import type { LastSuperAdminGuard } from './last-super-admin';

/**
 * What assigning roles reads and writes through: the apiserver gives it the security cache and the role bindings'
 * store; the model-based escalation test gives it a world of its own, so that both run this very code.
 */
export interface RoleAssignmentDeps {
  /** The user's bindings now: the binding's name and the role it binds. */
  bindingsOf(user: string): readonly { binding: string; role: string }[];
  binding(name: string): RoleBinding | undefined;
  roleExists(name: string): boolean;
  /** The decision every request is judged by, on a request `caller` would make. */
  allows(caller: UserInfo, info: RequestAttributes): Promise<boolean>;
  superAdmins: Pick<LastSuperAdminGuard, 'check'>;
  bindings: Pick<ResourceStore, 'create' | 'delete' | 'patch'>;
  log: Logger;
}

/**
 * Makes `user`'s bindings exactly `roles`: new ones created, dropped ones deleted (or the user taken out of a
 * shared one). Everything is checked before anything is written, so that a refusal leaves no half-done
 * assignment: each removal is authorised as the caller's own `delete` (or `update`/`patch`) of that binding,
 * the last enabled super administrator keeps their `super-role` binding (409), and each new binding is admitted
 * and each removal is first made as a dry run (the binding store's own checks).
 */
export async function assignRoles(deps: RoleAssignmentDeps, caller: UserInfo, user: string, roles: string[]) {
  const causes: StatusCause[] = [];
  roles.forEach((role, i) => {
    if (!deps.roleExists(role))
      causes.push({ field: `roles[${i}]`, reason: 'FieldValueNotFound', message: `role "${role}" does not exist` });
  });
  if (causes.length) throw invalid({ kind: 'UserPermission', name: user }, causes);
  const current = deps.bindingsOf(user);
  const added = roles.filter((role) => !current.some((b) => b.role === role));
  const removals = plannedRemovals(deps, user, roles);
  for (const removal of removals) await authoriseRemoval(deps, caller, user, removal);
  const superRoleRemovals = removals.filter((r) => r.binding.roleRef.name === SUPER_ROLE);
  if (superRoleRemovals.length) {
    deps.superAdmins.check(
      { unbound: superRoleRemovals.map((r) => ({ binding: r.binding.metadata.name!, users: [user] })) },
      { group: '', resource: 'rolebindings', name: superRoleRemovals[0].binding.metadata.name },
      false,
    );
  }
  for (const dryRun of [true, false]) {
    for (const role of added) await createBinding(deps, caller, user, role, dryRun);
    for (const removal of removals) await removeBinding(deps, caller, removal, dryRun);
  }
  deps.log.info({ user, roles, by: caller.name }, 'roles assigned');
}

/** A binding the assignment removes: deleted when `others` is empty, else changed to bind only them. */
interface Removal {
  binding: RoleBinding;
  others: RoleBinding['subjects'];
}

/** The user's bindings of roles not in `roles`, as the deps hold them now. */
function plannedRemovals(deps: RoleAssignmentDeps, user: string, roles: string[]): Removal[] {
  const removals: Removal[] = [];
  for (const { binding, role } of deps.bindingsOf(user)) {
    if (roles.includes(role)) continue;
    const object = deps.binding(binding);
    if (object) removals.push({ binding: object, others: object.subjects.filter((s) => s.name !== user) });
  }
  return removals;
}

/**
 * 403 unless the caller may make the removal as a request of their own: `delete` on the binding, or, to take the
 * user out of a binding shared with others, `update` or `patch` on it.
 */
async function authoriseRemoval(deps: RoleAssignmentDeps, caller: UserInfo, user: string, removal: Removal) {
  const name = removal.binding.metadata.name!;
  const verbs = removal.others.length === 0 ? ['delete'] : ['update', 'patch'];
  for (const verb of verbs) {
    if (await deps.allows(caller, { ...bindingRequest(name), verb })) return;
  }
  deps.log.info({ user, binding: name, by: caller.name, verbs }, 'role assignment denied');
  const action = removal.others.length === 0 ? 'delete' : 'update or patch';
  throw forbidden(
    `rolebindings "${name}" is forbidden: User "${caller.name}" cannot ${action} resource "rolebindings" ` +
      `in API group "" at the cluster scope: assigning roles to "${user}" would remove this binding of role ` +
      `"${removal.binding.roleRef.name}"`,
    { group: '', resource: 'rolebindings', name },
  );
}

/** The request attributes of `…/rolebindings/{name}`, as the generic handler's authorisation sees them. */
const bindingRequest = (name: string) => ({
  isResourceRequest: true,
  path: `/api/v1alpha1/rolebindings/${name}`,
  apiGroup: '',
  resource: 'rolebindings',
  subresource: '',
  name,
});

/** Deletes the binding, or takes the user out of it when it binds others too; with `dryRun`, only admits it. */
async function removeBinding(deps: RoleAssignmentDeps, caller: UserInfo, removal: Removal, dryRun: boolean) {
  const name = removal.binding.metadata.name!;
  const opts = { user: caller, dryRun };
  if (removal.others.length === 0)
    await deps.bindings.delete(name, { resourceVersion: removal.binding.metadata.resourceVersion }, opts);
  else await deps.bindings.patch(name, (cur: ApiObject) => ({ ...cur, subjects: removal.others }), opts);
}

/** Binds `role` to `user` through the binding store (its escalation check), or only admits it with `dryRun`. */
async function createBinding(deps: RoleAssignmentDeps, caller: UserInfo, user: string, role: string, dryRun: boolean) {
  const opts = { user: caller, dryRun };
  const binding = (metadata: ApiObject['metadata']): ApiObject => ({
    apiVersion: 'v1alpha1',
    kind: 'RoleBinding',
    metadata,
    roleRef: { apiGroup: '', kind: 'Role', name: role },
    subjects: [{ kind: 'User', apiGroup: '', name: user }],
  });
  // `<user>-<role>` when that is a valid, free name; a generated one otherwise.
  const name = `${user}-${role}`;
  const valid = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name) && name.length <= 240;
  await deps.bindings
    .create(binding(valid ? { name } : { generateName: 'binding-' }), opts)
    .catch(async (err: { code?: number }) => {
      if (err.code !== 409) throw err;
      await deps.bindings.create(binding({ generateName: `${name}-` }), opts);
    });
}
