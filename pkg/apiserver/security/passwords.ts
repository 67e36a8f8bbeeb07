import { conflict, forbidden, invalid, notFound } from '../../api/errors';
import { enforcedUiPermissions, heldRoles, type PolicyRule } from '../../auth/rbac';
import { LOGGED_IN_GROUPS, type UserInfo } from '../../auth/user';
import type { ApiObject } from '../../api/object';
import { passwordCredentialName } from '../../registry/security/credentials';
import { hashPassword, passwordProblem } from '../../auth/password';
import type { RequestContext } from '../context';
import { sendJson } from '../respond';
import type { RouteTable } from '../routes';
import { readObjectBody, requireVerb, type SecurityDeps } from './deps';

/** The group of the user centre's security endpoints (docs/security.md). */
export const UC_SECURITY_GROUP = 'uc.api.security.svc.run';

/**
 * Passwords (docs/security.md):
 * - `PUT /api/v1alpha1/users/{name}/password` `{"password"}`: an administrator sets one, which also lifts
 *   the user's failed-login lock in this apiserver;
 * - `PUT /apis/uc.api.security.svc.run/v1alpha1/users/-/password` `{"oldPassword", "password"}`:
 *   a user changes their own; a wrong old password is 422 on `oldPassword` and counts as a failed login, and
 *   while the user or address is locked the old password is not checked (429).
 * - `DELETE /api/v1alpha1/users/{name}/password`: removes the password of a user being deleted (the
 *   controller-manager's cleanup; a live user's password is replaced, never removed: 409).
 * Each answers 200 with the User (which never holds the hash). A password belongs to the user's uid, and a user
 * marked for deletion gets none (409).
 */
export function registerPasswordRoutes(routes: RouteTable, deps: SecurityDeps): void {
  routes.add({ group: '', version: 'v1alpha1', resource: 'users', subresource: 'password' }, async (ctx) => {
    requireVerb(ctx, 'update', 'delete');
    if (ctx.info.verb === 'delete') return removePassword(ctx, deps);
    const body = await readObjectBody(ctx, deps);
    const user = await deps.users.get(ctx.info.name);
    checkNoTakeover(ctx, deps, ctx.info.name);
    await setPassword(ctx, deps, user, body.password);
    deps.throttle.clearUser(ctx.info.name);
    sendJson(ctx.res, 200, user);
  });
  routes.add(
    { group: UC_SECURITY_GROUP, version: 'v1alpha1', resource: 'users', subresource: 'password' },
    async (ctx) => {
      requireVerb(ctx, 'update');
      if (ctx.info.name !== '-') throw notFound({ group: UC_SECURITY_GROUP, resource: 'users', name: ctx.info.name });
      const body = await readObjectBody(ctx, deps);
      const name = ctx.user.name;
      const user = await deps.users.get(name);
      const old = body.oldPassword;
      const address = ctx.req.socket.remoteAddress;
      if (typeof old !== 'string' || !(await deps.basic.check(name, old, address))) {
        const wrong = invalid({ kind: 'User', name }, [
          { field: 'oldPassword', reason: 'FieldValueInvalid', message: 'is not the current password' },
        ]);
        throw deps.throttle.fail(name, address, wrong);
      }
      await setPassword(ctx, deps, user, body.password);
      sendJson(ctx.res, 200, user);
    },
  );
}

/**
 * Setting another user's password is logging in as them: 403 unless the caller holds every rule and UI permission
 * that user holds (as binding their roles would need), so that `update` on `users/password` is no way to become a
 * super administrator. Under AlwaysAllow nothing is checked, as nothing else is.
 */
function checkNoTakeover(ctx: RequestContext, deps: SecurityDeps, name: string): void {
  if (!deps.enforcesRbac || name === ctx.user.name || holdsAllOf(deps, ctx.user, name)) return;
  ctx.log.info({ user: name, by: ctx.user.name }, 'password change refused: the user holds more than the caller');
  throw forbidden(
    `users "${name}" is forbidden: User "${ctx.user.name}" cannot set the password of "${name}", who holds ` +
      `rules or UI permissions that "${ctx.user.name}" does not (setting a password is acting as that user)`,
    { group: '', resource: 'users', name },
  );
}

/** Whether `caller` holds every rule and UI permission user `name` holds (super-role only if they hold it too). */
function holdsAllOf(deps: SecurityDeps, caller: UserInfo, name: string): boolean {
  const target = { name, groups: [...LOGGED_IN_GROUPS] };
  if (deps.authorizer.isSuperAdmin(target)) return deps.authorizer.isSuperAdmin(caller);
  const rules: PolicyRule[] = [];
  const ui: string[] = [];
  for (const held of heldRoles(deps.cache, target)) {
    if (held.limited || held.enforced === undefined) continue;
    rules.push(...held.enforced.ruleSet.rules);
    ui.push(...enforcedUiPermissions(held.enforced));
  }
  return (
    deps.authorizer.uncoveredRules(caller, rules).length === 0 &&
    deps.authorizer.uncoveredUiPermissions(caller, ui).length === 0
  );
}

async function setPassword(ctx: RequestContext, deps: SecurityDeps, user: ApiObject, password: unknown): Promise<void> {
  const name = user.metadata.name!;
  const problem = passwordProblem(password);
  if (problem)
    throw invalid({ kind: 'User', name }, [{ field: 'password', reason: 'FieldValueInvalid', message: problem }]);
  if (user.metadata.deletionTimestamp)
    throw conflict({ resource: 'users', name }, `user "${name}" is being deleted: it gets no new password`);
  const hash = await hashPassword(password as string, deps.passwordHash);
  const revision = await deps.credentials.setPassword(name, user.metadata.uid!, hash);
  await deps.cache.credentialsSeen(revision);
  ctx.log.info({ user: name, by: ctx.user.name }, 'password set');
}

/** DELETE …/users/{name}/password: only for a user marked for deletion; idempotent. */
async function removePassword(ctx: RequestContext, deps: SecurityDeps): Promise<void> {
  const user = await deps.users.get(ctx.info.name);
  const name = user.metadata.name!;
  if (!user.metadata.deletionTimestamp)
    throw conflict(
      { resource: 'users', name },
      `user "${name}" is not being deleted: only a deleted user's password is removed (set a new one with PUT)`,
    );
  await deps.cache.credentialsSeen(await deps.credentials.remove(passwordCredentialName(name)));
  ctx.log.info({ user: name, by: ctx.user.name }, 'password removed');
  sendJson(ctx.res, 200, user);
}
