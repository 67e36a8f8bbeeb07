import { forbidden, invalid, isNotFound, notFound, type StatusCause } from '../../api/errors';
import type { ApiObject } from '../../api/object';
import { heldRoles } from '../../auth/rbac';
import { newToken, tokenHash } from '../../auth/tokens';
import { ACCESS_TOKEN_ANNOTATION, type TokenSpec } from '../../registry/security/token-kind';
import type { RequestContext } from '../context';
import { handleList } from '../handlers/list';
import { sendJson } from '../respond';
import type { RouteTable } from '../routes';
import { readObjectBody, requireVerb, type SecurityDeps } from './deps';
import { UC_SECURITY_GROUP } from './passwords';

/**
 * A user's own personal access tokens (docs/security.md), under
 * `/apis/uc.api.security.svc.run/v1alpha1/personalaccesstokens`: create (the
 * secret is in the answer's `security.svc.run/access-token` annotation, this
 * once), list and get (the caller's tokens only; another user's is 404),
 * delete (revokes at once).
 */
export function registerTokenRoutes(routes: RouteTable, deps: SecurityDeps): void {
  routes.add({ group: UC_SECURITY_GROUP, version: 'v1alpha1', resource: 'personalaccesstokens' }, async (ctx) => {
    requireVerb(ctx, 'create', 'list', 'get', 'delete');
    switch (ctx.info.verb) {
      case 'create':
        return createToken(ctx, deps);
      case 'list':
        return handleList(ctx, deps.tokens, [{ field: 'spec.username', op: 'in', values: [ctx.user.name] }]);
      case 'get':
        return sendJson(ctx.res, 200, await ownToken(ctx, deps));
      default:
        return revokeToken(ctx, deps);
    }
  });
}

async function createToken(ctx: RequestContext, deps: SecurityDeps): Promise<void> {
  const body = await readObjectBody(ctx, deps);
  const spec = (body.spec ?? {}) as Partial<TokenSpec>;
  const metadata = (body.metadata ?? {}) as ApiObject['metadata'];
  checkTokenRequest(ctx, deps, spec);
  const uid = ownerUid(ctx, deps);
  // A token made with a role-limited token is limited the same way: a token never grants more than its maker.
  const roles = spec.roles ?? ctx.user.roleLimit;
  const { object } = await deps.tokens.create(
    {
      apiVersion: 'v1alpha1',
      kind: 'PersonalAccessToken',
      metadata: { name: metadata.name, generateName: metadata.name ? undefined : 'pat-', labels: metadata.labels },
      spec: {
        username: ctx.user.name,
        displayName: spec.displayName,
        expiresAt: spec.expiresAt,
        ...(roles ? { roles } : {}),
      },
    },
    { user: ctx.user },
  );
  const token = newToken();
  const revision = await deps.credentials.setTokenHash(object.metadata.name!, ctx.user.name, uid, tokenHash(token));
  await deps.cache.credentialsSeen(revision);
  ctx.log.info({ user: ctx.user.name, token: object.metadata.name }, 'personal access token created');
  const shown = {
    ...object,
    metadata: { ...object.metadata, annotations: { ...object.metadata.annotations, [ACCESS_TOKEN_ANNOTATION]: token } },
  };
  sendJson(ctx.res, 201, shown, { Location: `${ctx.info.path}/${object.metadata.name}` });
}

/**
 * The uid of the caller's user, whom the token will belong to: a token works only while the user of its name has
 * this uid. An identity with no stored user (the controller-manager's, a plugin's, the anonymous visitor) holds no
 * personal access tokens: 403.
 */
function ownerUid(ctx: RequestContext, deps: SecurityDeps): string {
  const uid = deps.cache.liveUserUid(ctx.user.name);
  if (uid) return uid;
  throw forbidden(
    `personalaccesstokens.${UC_SECURITY_GROUP} is forbidden: "${ctx.user.name}" is not a stored user and cannot hold personal access tokens`,
    { group: UC_SECURITY_GROUP, resource: 'personalaccesstokens' },
  );
}

/** 422 for a malformed expiry or display name, or a role the caller does not hold. */
function checkTokenRequest(ctx: RequestContext, deps: SecurityDeps, spec: Partial<TokenSpec>): void {
  const causes: StatusCause[] = [];
  if (spec.displayName !== undefined && typeof spec.displayName !== 'string') {
    causes.push({ field: 'spec.displayName', reason: 'FieldValueInvalid', message: 'must be a string' });
  }
  if (spec.expiresAt !== undefined) {
    const at = typeof spec.expiresAt === 'string' ? Date.parse(spec.expiresAt) : NaN;
    if (Number.isNaN(at))
      causes.push({ field: 'spec.expiresAt', reason: 'FieldValueInvalid', message: 'must be an RFC 3339 time' });
    else if (at <= Date.now())
      causes.push({ field: 'spec.expiresAt', reason: 'FieldValueInvalid', message: 'must be in the future' });
  }
  if (spec.roles !== undefined) {
    const held = heldRoleNames(ctx, deps);
    if (!Array.isArray(spec.roles))
      causes.push({ field: 'spec.roles', reason: 'FieldValueInvalid', message: 'must be a list of role names' });
    else
      spec.roles.forEach((role, i) => {
        if (typeof role !== 'string' || !held.has(role)) {
          causes.push({
            field: `spec.roles[${i}]`,
            reason: 'FieldValueInvalid',
            message: `the user does not hold role ${JSON.stringify(role)}`,
          });
        }
      });
  }
  if (causes.length) throw invalid({ kind: 'PersonalAccessToken' }, causes);
}

/**
 * The roles the caller holds: those bound to them (as far as their own token allows) and `authenticated` and
 * `anonymous`, which every logged-in user holds (docs/security.md). A role reached only through a bound role's
 * dependencies is not held: the user holds the bound role.
 */
function heldRoleNames(ctx: RequestContext, deps: SecurityDeps): Set<string> {
  return new Set(
    heldRoles(deps.cache, ctx.user)
      .filter((held) => !held.limited)
      .map((held) => held.name),
  );
}

async function ownToken(ctx: RequestContext, deps: SecurityDeps): Promise<ApiObject> {
  const missing = () => notFound({ group: UC_SECURITY_GROUP, resource: 'personalaccesstokens', name: ctx.info.name });
  let token: ApiObject;
  try {
    token = await deps.tokens.get(ctx.info.name);
  } catch (err) {
    if (isNotFound(err)) throw missing();
    throw err;
  }
  if ((token.spec as TokenSpec).username !== ctx.user.name) throw missing();
  return token;
}

async function revokeToken(ctx: RequestContext, deps: SecurityDeps): Promise<void> {
  await ownToken(ctx, deps);
  const { object } = await deps.tokens.delete(ctx.info.name, undefined, { user: ctx.user });
  ctx.log.info({ user: ctx.user.name, token: ctx.info.name }, 'personal access token revoked');
  sendJson(ctx.res, 200, object);
}
