import { badRequest, forbidden, invalid, type StatusCause } from '../../api/errors';
import type { AccessIndex } from '../../auth/insight/access-index';
import { accessImpact, type ProposedChange } from '../../auth/insight/impact';
import { pluginRoleWrites } from '../../auth/insight/plugin-templates';
import { whatCan } from '../../auth/insight/what-can';
import { whoCan, type ConditionsHold } from '../../auth/insight/who-can';
import { bindCondition, type Role } from '../../auth/rbac';
import type { RequestAttributes } from '../../auth/attributes';
import { ANONYMOUS, isAnonymous, LOGGED_IN_GROUPS, type UserInfo } from '../../auth/user';
import type { RequestContext } from '../context';
import { objectAccess, usableConditions } from '../object-access';
import { sendJson } from '../respond';
import type { RouteTable } from '../routes';
import { AUTHORIZATION_GROUP, attributesOf, objectAt } from './access-reviews';
import { readObjectBody, requireVerb, type SecurityDeps } from './deps';
import { connectAccessIndex, impactWorld, indexedBinding } from './insight-index';

/**
 * Access insight (docs/security.md, "Who can, and why"), each a `POST` that stores nothing, allowed to holders
 * of `create` on it (the hidden template `access-insight-view` grants all three), and a subject rules review about
 * oneself to every logged-in user:
 * - `resourceaccessreviews`: who can do something, each user with the grant's path, paged;
 * - `subjectrulesreviews`: what a user can do, each rule with where it comes from;
 * - `accessimpactreviews`: what a proposed Role, RoleBinding, User, Plugin (its role templates) or role assignment
 *   would change, per user.
 */
export function registerInsightRoutes(routes: RouteTable, deps: SecurityDeps): AccessIndex {
  const index = connectAccessIndex(deps.cache);
  const route = (resource: string) => ({ group: AUTHORIZATION_GROUP, version: 'v1alpha1', resource });
  routes.add(route('resourceaccessreviews'), async (ctx) => {
    const spec = await reviewSpec(ctx, deps, KIND.who);
    const { limit, continue: token, ...request } = spec;
    const attrs = attributesOf(request, 'spec');
    const page = pageOf(limit, token, KIND.who);
    const answer = whoCan(index, deps.cache, attrs, page, await conditionsOnObject(deps, attrs));
    answerReview(ctx, KIND.who, spec, {
      anonymous: answer.anonymous,
      authenticated: answer.authenticated,
      users: answer.users,
      total: answer.total,
      continue: continueToken(answer.continueAfter),
    });
  });
  // Self-service: every logged-in user may ask what they themself can do; asking about another needs `create` on it.
  routes.add({ ...route('subjectrulesreviews'), selfService: true }, async (ctx) => {
    const spec = await reviewSpec(ctx, deps, KIND.what);
    if (spec.user !== undefined && typeof spec.user !== 'string')
      throw invalid({ kind: KIND.what }, [fieldInvalid('spec.user', 'must be a string')]);
    const user = !spec.user || spec.user === ctx.user.name ? ctx.user : otherUser(ctx, deps, spec.user);
    answerReview(ctx, KIND.what, { ...spec, user: user.name }, whatCan(deps.cache, user));
  });
  routes.add(route('accessimpactreviews'), async (ctx) => {
    const spec = await reviewSpec(ctx, deps, KIND.impact);
    const change = proposedChange(spec, deps);
    const page = pageOf(spec.limit, spec.continue, KIND.impact);
    const impact = accessImpact(impactWorld(deps.cache, index), change);
    const start = page.after === '' ? 0 : impact.changes.findIndex((c) => c.user > page.after);
    const changes = start < 0 ? [] : impact.changes.slice(start, start + page.limit);
    const more = start >= 0 && start + page.limit < impact.changes.length;
    answerReview(ctx, KIND.impact, spec, {
      ...impact,
      changes,
      continue: continueToken(more ? changes[changes.length - 1].user : ''),
    });
  });
  return index;
}

/**
 * For a question that names an object: whether conditional grants hold on it as stored (read once; none hold on an
 * object that does not exist). `undefined` for a question without a name (or a create), where users holding only
 * conditional grants are listed with their conditions.
 */
async function conditionsOnObject(deps: SecurityDeps, attrs: RequestAttributes): Promise<ConditionsHold | undefined> {
  if (!attrs.isResourceRequest || attrs.name === '' || attrs.verb === 'create') return undefined;
  const stored = await deps.conditionalObjects?.read(attrs.apiGroup, attrs.resource, attrs.name);
  return (user, conditions) => {
    if (!stored) return false;
    const bound = conditions.flatMap((where) => bindCondition(where, user, isAnonymous(user)) ?? []);
    // As a request is judged: a condition on a field the model does not index grants nothing.
    return objectAccess(usableConditions(bound, stored.model), stored.model).allows(stored.object);
  };
}

const KIND = {
  who: 'ResourceAccessReview',
  what: 'SubjectRulesReview',
  impact: 'AccessImpactReview',
} as const;

/** The most users (or changes) one answer holds; the default when `spec.limit` is absent. */
export const MAX_REVIEW_LIMIT = 1000;
export const DEFAULT_REVIEW_LIMIT = 100;

/** The review's `spec` (an object; absent reads as empty) after the usual checks of a review request. */
async function reviewSpec(ctx: RequestContext, deps: SecurityDeps, kind: string): Promise<Record<string, unknown>> {
  requireVerb(ctx, 'create');
  if (ctx.info.name) throw badRequest('a review is created on the collection, without a name');
  const body = await readObjectBody(ctx, deps);
  return objectAt<Record<string, unknown>>(body.spec, 'spec', kind);
}

function answerReview(ctx: RequestContext, kind: string, spec: Record<string, unknown>, status: object): void {
  sendJson(ctx.res, 201, { apiVersion: `${AUTHORIZATION_GROUP}/v1alpha1`, kind, metadata: {}, spec, status });
}

const fieldInvalid = (field: string, message: string): StatusCause => ({
  field,
  reason: 'FieldValueInvalid',
  message,
});

/** Another user than the caller, for a review the caller holds `create` on (403 otherwise). */
function otherUser(ctx: RequestContext, deps: SecurityDeps, name: string): UserInfo {
  if (deps.authorizer.decide(ctx.user, { ...ctx.info, name: '' }).decision !== 'Allow')
    throw forbidden(
      `user "${ctx.user.name}" cannot review what user "${name}" can do: that needs create on ${ctx.info.resource}`,
      { group: AUTHORIZATION_GROUP, resource: ctx.info.resource },
    );
  return userNamed(name);
}

const userNamed = (name: string): UserInfo =>
  name === ANONYMOUS.name ? ANONYMOUS : { name, groups: [...LOGGED_IN_GROUPS] };

/** `spec.limit` and `spec.continue` as a page: 422 for a limit that is not a positive integer or a continue that is not a string, 400 for a continue this server did not make. */
function pageOf(limit: unknown, token: unknown, kind: string): { limit: number; after: string } {
  const causes: StatusCause[] = [];
  if (limit !== undefined && (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1))
    causes.push(fieldInvalid('spec.limit', 'must be a positive integer'));
  if (token !== undefined && typeof token !== 'string') causes.push(fieldInvalid('spec.continue', 'must be a string'));
  if (causes.length) throw invalid({ kind }, causes);
  const size = Math.min((limit as number | undefined) ?? DEFAULT_REVIEW_LIMIT, MAX_REVIEW_LIMIT);
  return { limit: size, after: token ? afterOf(token as string) : '' };
}

/** The opaque `continue` of a page that ends after `user` (`''`: no more pages). */
const continueToken = (user: string) =>
  user === '' ? '' : Buffer.from(JSON.stringify({ after: user })).toString('base64url');

function afterOf(token: string): string {
  try {
    const after = (JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { after?: unknown }).after;
    if (typeof after === 'string' && after !== '') return after;
  } catch {
    // reported below
  }
  throw badRequest('spec.continue is not a continue token of this review');
}

/** The change an impact review's spec proposes; 422 naming what is missing or wrong. */
function proposedChange(spec: Record<string, unknown>, deps: SecurityDeps): ProposedChange {
  const kind = KIND.impact;
  const operation = spec.operation;
  if (operation !== 'create' && operation !== 'update' && operation !== 'delete')
    throw invalid({ kind }, [fieldInvalid('spec.operation', 'must be create, update or delete')]);
  if (spec.userPermissions !== undefined) return assignment(spec.userPermissions, operation);
  const object = objectAt<Record<string, unknown>>(spec.object, 'spec.object', kind);
  return objectChange(object, operation === 'delete', deps);
}

/** The change writing (or, `deleted`, deleting) `object` proposes. */
function objectChange(object: Record<string, unknown>, deleted: boolean, deps: SecurityDeps): ProposedChange {
  const kind = KIND.impact;
  const metadata = objectAt<Record<string, unknown>>(object.metadata, 'spec.object.metadata', kind);
  const name = metadata.name;
  if (typeof name !== 'string' || name === '')
    throw invalid({ kind }, [
      { field: 'spec.object.metadata.name', reason: 'FieldValueRequired', message: 'names the object' },
    ]);
  switch (object.kind) {
    case 'Role':
      return { kind: 'role', name, role: deleted ? undefined : roleOf(object) };
    case 'RoleBinding':
      return { kind: 'binding', name, binding: deleted ? undefined : bindingOf(object) };
    case 'User':
      return {
        kind: 'user',
        name,
        exists: !deleted,
        disabled: (object.spec as { disabled?: unknown } | undefined)?.disabled === true,
      };
    case 'Plugin':
      return pluginChange(name, object, deleted, deps);
    default:
      throw invalid({ kind }, [fieldInvalid('spec.object.kind', 'must be Role, RoleBinding, User or Plugin')]);
  }
}

/**
 * A Plugin written or deleted: its role templates applied (enabled, the default) or removed (disabled, deleted),
 * read from the plugin as this server loaded it; nothing is installed or run. 422 when the plugin would be applied
 * but is not installed here (its templates are unknown).
 */
function pluginChange(
  name: string,
  object: Record<string, unknown>,
  deleted: boolean,
  deps: SecurityDeps,
): ProposedChange {
  const enabled = (object.spec as { enabled?: unknown } | undefined)?.enabled;
  if (enabled !== undefined && typeof enabled !== 'boolean')
    throw invalid({ kind: KIND.impact }, [fieldInvalid('spec.object.spec.enabled', 'must be true or false')]);
  const applied = !deleted && enabled !== false;
  const declared = deps.pluginExtensions?.of?.(name);
  if (applied && declared === undefined)
    throw invalid({ kind: KIND.impact }, [
      fieldInvalid(
        'spec.object.metadata.name',
        `no plugin "${name}" is installed here: its role templates are unknown`,
      ),
    ]);
  return { kind: 'roles', roles: pluginRoleWrites(name, applied, declared ?? [], deps.cache.allRoles()) };
}

function assignment(value: unknown, operation: string): ProposedChange {
  const kind = KIND.impact;
  const spec = objectAt<{ user?: unknown; roles?: unknown }>(value, 'spec.userPermissions', kind);
  const causes: StatusCause[] = [];
  if (operation !== 'update') causes.push(fieldInvalid('spec.operation', 'a role assignment is an update'));
  if (typeof spec.user !== 'string' || spec.user === '')
    causes.push(fieldInvalid('spec.userPermissions.user', 'names the user'));
  if (!Array.isArray(spec.roles) || spec.roles.some((r) => typeof r !== 'string' || r === ''))
    causes.push(fieldInvalid('spec.userPermissions.roles', 'must be a list of role names'));
  if (causes.length) throw invalid({ kind }, causes);
  return { kind: 'assignment', user: spec.user as string, roles: [...new Set(spec.roles as string[])] };
}

/** A proposed Role: its rules must be a list of objects with a list of verbs (what the matcher reads). */
function roleOf(object: Record<string, unknown>): Role {
  const rules = object.rules ?? [];
  const bad =
    !Array.isArray(rules) ||
    rules.some(
      (r) =>
        r === null ||
        typeof r !== 'object' ||
        !Array.isArray((r as { verbs?: unknown }).verbs) ||
        (['apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const).some((f) => {
          const list = (r as Record<string, unknown>)[f];
          return list !== undefined && (!Array.isArray(list) || list.some((v) => typeof v !== 'string'));
        }),
    );
  if (bad)
    throw invalid({ kind: KIND.impact }, [
      fieldInvalid('spec.object.rules', 'must be a list of rules, each with lists of strings'),
    ]);
  return { ...(object as unknown as Role), rules: rules as Role['rules'] };
}

/** A proposed RoleBinding: `roleRef.name` and the subjects' names. */
function bindingOf(object: Record<string, unknown>) {
  const roleRef = object.roleRef as { name?: unknown } | undefined;
  const subjects = object.subjects;
  const causes: StatusCause[] = [];
  if (typeof roleRef?.name !== 'string' || roleRef.name === '')
    causes.push(fieldInvalid('spec.object.roleRef.name', 'names the role'));
  if (
    subjects !== undefined &&
    (!Array.isArray(subjects) || subjects.some((s) => typeof (s as { name?: unknown } | null)?.name !== 'string'))
  )
    causes.push(fieldInvalid('spec.object.subjects', 'must be a list of subjects, each with a name'));
  if (causes.length) throw invalid({ kind: KIND.impact }, causes);
  return indexedBinding(object as never);
}
