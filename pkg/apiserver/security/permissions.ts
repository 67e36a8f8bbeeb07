import { forbidden, invalid, notFound, type StatusCause } from '../../api/errors';
import type { ApiObject } from '../../api/object';
import {
  ANONYMOUS_ROLE,
  AUTHENTICATED_ROLE,
  enforcedUiPermissions,
  HIDDEN_LABEL,
  heldRoles,
  SUPER_ROLE,
  type RoleBinding,
} from '../../auth/rbac';
import type { UserInfo } from '../../auth/user';
import { LOGGED_IN_GROUPS } from '../../auth/user';
import type { RequestContext } from '../context';
import { sendJson } from '../respond';
import { sendJsonIfChanged } from '../conditional';
import type { RouteTable } from '../routes';
import { readObjectBody, requireVerb, subjectName, type SecurityDeps } from './deps';

/** The console's API group (API.md §9). */
export const CONSOLE_GROUP = 'api.console.svc.run';

/** What `GET …/users/{name}/permissions` answers. */
export interface UserPermissions {
  /** Role names the user holds, hidden ones and anonymous/authenticated left out. */
  roles: string[];
  /** UI permissions of every role they hold, sorted; `["*"]` for the super administrator. */
  uiPermissions: string[];
}

/**
 * The console's view of users (API.md §9):
 * - `GET /apis/api.console.svc.run/v1alpha1/users/-`: the caller's User;
 * - `GET …/users/{name|-}/permissions`: their roles and UI permissions;
 * - `POST …/users/{name}/permissions` `{"roles": [...]}`: replaces their bindings
 *   ("assign roles" in a console), each new one checked as any binding is.
 */
export function registerPermissionRoutes(routes: RouteTable, deps: SecurityDeps): void {
  routes.add({ group: CONSOLE_GROUP, version: 'v1alpha1', resource: 'users' }, async (ctx) => {
    requireVerb(ctx, 'get');
    sendJson(ctx.res, 200, await deps.users.get(subjectName(ctx)));
  });
  routes.add(
    { group: CONSOLE_GROUP, version: 'v1alpha1', resource: 'users', subresource: 'permissions' },
    async (ctx) => {
      requireVerb(ctx, 'get', 'create');
      const name = subjectName(ctx);
      if (ctx.info.verb === 'get') {
        const user = name === ctx.user.name ? ctx.user : { name, groups: [...LOGGED_IN_GROUPS] };
        // Polled by consoles whose user may not watch roles: unchanged, it is a 304 without a body.
        sendJsonIfChanged(ctx, permissionsOf(user, deps));
        return;
      }
      if (!deps.cache.users.get(name)) throw notFound({ resource: 'users', name });
      const roles = rolesFromBody(await readObjectBody(ctx, deps));
      await replaceBindings(ctx, deps, name, roles);
      sendJson(ctx.res, 200, { roles: [...roles].sort() });
    },
  );
}

/** The roles and UI permissions a user holds now. */
export function permissionsOf(user: UserInfo, deps: SecurityDeps): UserPermissions {
  const held = heldRoles(deps.cache, user)
    .filter((h) => !h.limited)
    .map((h) => h.name);
  const roles = held.filter((name) => {
    const role = deps.cache.role(name)?.role;
    return (
      role && name !== ANONYMOUS_ROLE && name !== AUTHENTICATED_ROLE && role.metadata.labels?.[HIDDEN_LABEL] !== 'true'
    );
  });
  if (deps.authorizer.isSuperAdmin(user)) return { roles: [...new Set(roles)].sort(), uiPermissions: ['*'] };
  const ui = new Set<string>();
  for (const name of held) {
    const enforced = deps.cache.role(name);
    if (!enforced) continue;
    for (const p of enforcedUiPermissions(enforced)) ui.add(p);
  }
  return { roles: [...new Set(roles)].sort(), uiPermissions: [...ui].sort() };
}

function rolesFromBody(body: Record<string, unknown>): string[] {
  const roles = body.roles;
  if (!Array.isArray(roles) || roles.some((r) => typeof r !== 'string' || r === '')) {
    throw invalid({ kind: 'UserPermission' }, [
      { field: 'roles', reason: 'FieldValueInvalid', message: 'must be a list of role names' },
    ]);
  }
  return [...new Set(roles as string[])];
}

/**
 * Makes the user's bindings exactly `roles`: new ones created, dropped ones deleted (or the user taken out of a
 * shared one). Everything is checked before anything is written, so that a refusal leaves no half-done
 * assignment: each removal is authorised as the caller's own `delete` (or `update`/`patch`) of that binding,
 * the last enabled super administrator keeps their `super-role` binding (409), and each new binding is admitted
 * and each removal is first made as a dry run (the binding store's own checks).
 */
async function replaceBindings(ctx: RequestContext, deps: SecurityDeps, user: string, roles: string[]): Promise<void> {
  const causes: StatusCause[] = [];
  roles.forEach((role, i) => {
    if (!deps.cache.role(role))
      causes.push({ field: `roles[${i}]`, reason: 'FieldValueNotFound', message: `role "${role}" does not exist` });
  });
  if (causes.length) throw invalid({ kind: 'UserPermission', name: user }, causes);
  const current = deps.cache.bindingsOf(user);
  const added = roles.filter((role) => !current.some((b) => b.role === role));
  const removals = plannedRemovals(deps, user, roles);
  for (const removal of removals) await authoriseRemoval(ctx, deps, user, removal);
  const superRoleRemovals = removals.filter((r) => r.binding.roleRef.name === SUPER_ROLE);
  if (superRoleRemovals.length) {
    deps.superAdmins.check(
      { unbound: superRoleRemovals.map((r) => ({ binding: r.binding.metadata.name!, users: [user] })) },
      { group: '', resource: 'rolebindings', name: superRoleRemovals[0].binding.metadata.name },
      false,
    );
  }
  for (const dryRun of [true, false]) {
    for (const role of added) await createBinding(ctx, deps, user, role, dryRun);
    for (const removal of removals) await removeBinding(ctx, deps, removal, dryRun);
  }
  ctx.log.info({ user, roles, by: ctx.user.name }, 'roles assigned');
}

/** A binding the assignment removes: deleted when `others` is empty, else changed to bind only them. */
interface Removal {
  binding: RoleBinding;
  others: RoleBinding['subjects'];
}

/** The user's bindings of roles not in `roles`, as the cache holds them now. */
function plannedRemovals(deps: SecurityDeps, user: string, roles: string[]): Removal[] {
  const removals: Removal[] = [];
  for (const { binding, role } of deps.cache.bindingsOf(user)) {
    if (roles.includes(role)) continue;
    const object = deps.cache.bindings.get(binding) as RoleBinding | undefined;
    if (object) removals.push({ binding: object, others: object.subjects.filter((s) => s.name !== user) });
  }
  return removals;
}

/**
 * 403 unless the caller may make the removal as a request of their own: `delete` on the binding, or, to take the
 * user out of a binding shared with others, `update` or `patch` on it.
 */
async function authoriseRemoval(ctx: RequestContext, deps: SecurityDeps, user: string, removal: Removal) {
  const name = removal.binding.metadata.name!;
  const verbs = removal.others.length === 0 ? ['delete'] : ['update', 'patch'];
  for (const verb of verbs) {
    const info = { ...bindingRequest(name), verb };
    if ((await deps.requestAuthorizer.authorize({ user: ctx.user, info })).decision === 'Allow') return;
  }
  ctx.log.info({ user, binding: name, by: ctx.user.name, verbs }, 'role assignment denied');
  const action = removal.others.length === 0 ? 'delete' : 'update or patch';
  throw forbidden(
    `rolebindings "${name}" is forbidden: User "${ctx.user.name}" cannot ${action} resource "rolebindings" ` +
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
async function removeBinding(ctx: RequestContext, deps: SecurityDeps, { binding, others }: Removal, dryRun: boolean) {
  const name = binding.metadata.name!;
  const opts = { user: ctx.user, dryRun };
  if (others.length === 0)
    await deps.bindings.delete(name, { resourceVersion: binding.metadata.resourceVersion }, opts);
  else await deps.bindings.patch(name, (cur: ApiObject) => ({ ...cur, subjects: others }), opts);
}

/** Binds `role` to `user` through the binding store (its escalation check), or only admits it with `dryRun`. */
async function createBinding(ctx: RequestContext, deps: SecurityDeps, user: string, role: string, dryRun: boolean) {
  const opts = { user: ctx.user, dryRun };
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
