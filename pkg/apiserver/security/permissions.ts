import { invalid, notFound } from '../../api/errors';
import {
  ANONYMOUS_ROLE,
  AUTHENTICATED_ROLE,
  enforcedUiPermissions,
  HIDDEN_LABEL,
  heldRoles,
  type RoleBinding,
} from '../../auth/rbac';
import { assignRoles, type RoleAssignmentDeps } from '../../registry/security/role-assignment';
import type { UserInfo } from '../../auth/user';
import { LOGGED_IN_GROUPS } from '../../auth/user';
import type { RequestContext } from '../context';
import { sendJson } from '../respond';
import { sendJsonIfChanged } from '../conditional';
import type { RouteTable } from '../routes';
import { readObjectBody, requireVerb, subjectName, type SecurityDeps } from './deps';

/** The console's API group (docs/security.md). */
export const CONSOLE_GROUP = 'api.console.svc.run';

/** What `GET …/users/{name}/permissions` answers. */
export interface UserPermissions {
  /** Role names the user holds, hidden ones and anonymous/authenticated left out. */
  roles: string[];
  /** UI permissions of every role they hold, sorted; `["*"]` for the super administrator. */
  uiPermissions: string[];
}

/**
 * The console's view of users (docs/security.md):
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
      await assignRoles(assignmentDeps(ctx, deps), ctx.user, name, roles);
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

/** The role assignment's reads and writes: the security cache, the request authoriser, the bindings' store. */
function assignmentDeps(ctx: RequestContext, deps: SecurityDeps): RoleAssignmentDeps {
  return {
    bindingsOf: (user) => deps.cache.bindingsOf(user),
    binding: (name) => deps.cache.bindings.get(name) as RoleBinding | undefined,
    roleExists: (name) => deps.cache.role(name) !== undefined,
    allows: async (user, info) => (await deps.requestAuthorizer.authorize({ user, info })).decision === 'Allow',
    superAdmins: deps.superAdmins,
    bindings: deps.bindings,
    log: ctx.log,
  };
}
