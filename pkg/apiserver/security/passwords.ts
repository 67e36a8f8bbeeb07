import { invalid, notFound } from '../../api/errors';
import { hashPassword, passwordProblem } from '../../auth/password';
import type { RequestContext } from '../context';
import { sendJson } from '../respond';
import type { RouteTable } from '../routes';
import { readObjectBody, requireVerb, type SecurityDeps } from './deps';

/** The group of the user centre's security endpoints (API.md §8). */
export const UC_SECURITY_GROUP = 'uc.api.security.svc.run';

/**
 * Passwords (API.md §8):
 * - `PUT /api/v1alpha1/users/{name}/password` `{"password"}`: an administrator sets one, which also lifts
 *   the user's failed-login lock in this apiserver;
 * - `PUT /apis/uc.api.security.svc.run/v1alpha1/users/-/password` `{"oldPassword", "password"}`:
 *   a user changes their own; a wrong old password is 422 on `oldPassword` and counts as a failed login, and
 *   while the user or address is locked the old password is not checked (429).
 * Both answer 200 with the User (which never holds the hash).
 */
export function registerPasswordRoutes(routes: RouteTable, deps: SecurityDeps): void {
  routes.add({ group: '', version: 'v1alpha1', resource: 'users', subresource: 'password' }, async (ctx) => {
    requireVerb(ctx, 'update');
    const body = await readObjectBody(ctx, deps);
    const user = await deps.users.get(ctx.info.name);
    await setPassword(ctx, deps, ctx.info.name, body.password);
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
      await setPassword(ctx, deps, name, body.password);
      sendJson(ctx.res, 200, user);
    },
  );
}

async function setPassword(ctx: RequestContext, deps: SecurityDeps, user: string, password: unknown): Promise<void> {
  const problem = passwordProblem(password);
  if (problem)
    throw invalid({ kind: 'User', name: user }, [{ field: 'password', reason: 'FieldValueInvalid', message: problem }]);
  const revision = await deps.credentials.setPassword(user, await hashPassword(password as string, deps.passwordHash));
  await deps.cache.credentialsSeen(revision);
  ctx.log.info({ user, by: ctx.user.name }, 'password set');
}
