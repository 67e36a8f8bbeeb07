import { badRequest, forbidden, invalid, type StatusCause } from '../../api/errors';
import type { RequestAttributes } from '../../auth/attributes';
import { ANONYMOUS, LOGGED_IN_GROUPS, type UserInfo } from '../../auth/user';
import type { RequestContext } from '../context';
import { decodeBody, mediaType, readBody } from '../body';
import { decodeAccessReview } from '../k8s-protobuf/access-review';
import { sendJson } from '../respond';
import type { RouteTable } from '../routes';
import { readObjectBody, requireVerb, type SecurityDeps } from './deps';
import { conditionalAnswer, usableConditionsOf } from './conditional-review';
import { describeConditions } from '../object-access';

export const AUTHORIZATION_GROUP = 'authorization.svc.run';
const K8S_AUTHORIZATION_GROUP = 'authorization.k8s.io';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** What an AccessReview asks: a resource request or a non-resource path. */
interface AccessReviewSpec {
  user?: string;
  verb?: string;
  group?: string;
  resource?: string;
  subresource?: string;
  name?: string;
  path?: string;
}

/**
 * "May this user do this, and why?" (docs/security.md, docs/kubectl.md):
 * - `POST /apis/authorization.svc.run/v1alpha1/accessreviews` — svc's own, with the trace;
 * - `POST /apis/authorization.k8s.io/v1/selfsubjectaccessreviews` — what `kubectl auth can-i` sends (JSON or protobuf);
 * - `POST /apis/authorization.k8s.io/v1/subjectaccessreviews` — about another user (needs `create` on it).
 * Every logged-in user may review themself; reviewing another user with an
 * AccessReview needs `create` on accessreviews and `get` on that user.
 */
export function registerAccessReviewRoutes(routes: RouteTable, deps: SecurityDeps): void {
  routes.add(
    { group: AUTHORIZATION_GROUP, version: 'v1alpha1', resource: 'accessreviews', selfService: true },
    async (ctx) => {
      requireCollectionCreate(ctx);
      const body = await readObjectBody(ctx, deps);
      const spec = objectAt<AccessReviewSpec>(body.spec, 'spec', 'AccessReview');
      const attrs = attributesOf(spec, 'spec');
      const user = await reviewedUser(ctx, deps, spec.user);
      const explained = deps.authorizer.explain(user, attrs);
      const conditional = explained.allowed
        ? undefined
        : await conditionalAnswer(deps.authorizer, deps.conditionalObjects, user, attrs);
      const status = conditional ? { ...explained, ...conditional } : explained;
      sendJson(ctx.res, 201, {
        apiVersion: `${AUTHORIZATION_GROUP}/v1alpha1`,
        kind: 'AccessReview',
        metadata: {},
        spec: { ...spec, user: user.name },
        status,
      });
    },
  );
  routes.add(
    { group: K8S_AUTHORIZATION_GROUP, version: 'v1', resource: 'selfsubjectaccessreviews', selfService: true },
    async (ctx) => {
      requireCollectionCreate(ctx);
      const review = await readK8sReview(ctx, deps);
      kubernetesAnswer(ctx, deps, 'SelfSubjectAccessReview', review.spec, ctx.user);
    },
  );
  routes.add({ group: K8S_AUTHORIZATION_GROUP, version: 'v1', resource: 'subjectaccessreviews' }, async (ctx) => {
    requireCollectionCreate(ctx);
    const review = await readK8sReview(ctx, deps);
    const name = review.spec.user;
    if (name !== undefined && typeof name !== 'string')
      throw invalid({ kind: 'SubjectAccessReview' }, [mustBeString('spec.user')]);
    if (!name)
      throw invalid({ kind: 'SubjectAccessReview' }, [
        { field: 'spec.user', reason: 'FieldValueRequired', message: 'names the user to review' },
      ]);
    kubernetesAnswer(ctx, deps, 'SubjectAccessReview', review.spec, userNamed(name));
  });
}

function requireCollectionCreate(ctx: RequestContext): void {
  requireVerb(ctx, 'create');
  if (ctx.info.name) throw badRequest('an access review is created on the collection, without a name');
}

/** The user a review is about: the caller, or another user the caller may review. */
async function reviewedUser(ctx: RequestContext, deps: SecurityDeps, name: string | undefined): Promise<UserInfo> {
  if (name === undefined || name === '' || name === ctx.user.name) return ctx.user;
  const allows = (attrs: RequestAttributes) => deps.authorizer.decide(ctx.user, attrs).decision === 'Allow';
  const mayReview =
    allows({ ...ctx.info, name: '' }) &&
    allows({ isResourceRequest: true, path: '', verb: 'get', apiGroup: '', resource: 'users', subresource: '', name });
  if (!mayReview) {
    throw forbidden(
      `user "${ctx.user.name}" cannot review user "${name}": that needs create on accessreviews and get on the user`,
      { group: AUTHORIZATION_GROUP, resource: 'accessreviews' },
    );
  }
  return userNamed(name);
}

const userNamed = (name: string): UserInfo =>
  name === ANONYMOUS.name ? ANONYMOUS : { name, groups: [...LOGGED_IN_GROUPS] };

/** Every field of an AccessReview's spec; each is a string when present. */
const REVIEW_FIELDS: readonly (keyof AccessReviewSpec)[] = [
  'user',
  'verb',
  'group',
  'resource',
  'subresource',
  'name',
  'path',
];

const mustBeString = (field: string): StatusCause => ({
  field,
  reason: 'FieldValueInvalid',
  message: 'must be a string',
});

/**
 * A part of a review body that must be an object (`spec`, `spec.resourceAttributes`): absent or null reads as
 * empty; anything else is 422 naming it, so that no other type is read as if it were one.
 */
export function objectAt<T>(value: unknown, field: string, kind: string): T {
  if (value === undefined || value === null) return {} as T;
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalid({ kind }, [{ field, reason: 'FieldValueInvalid', message: 'must be an object' }]);
  return value as T;
}

/**
 * The request an AccessReview's spec describes. 422 naming every field that is there but not a string (a `user`
 * that is an object must never be read as a name); else 422 naming what is missing.
 */
export function attributesOf(spec: AccessReviewSpec, prefix: string): RequestAttributes {
  const wrongTypes = REVIEW_FIELDS.filter((f) => spec[f] !== undefined && typeof spec[f] !== 'string');
  if (wrongTypes.length)
    throw invalid(
      { kind: 'AccessReview' },
      wrongTypes.map((f) => mustBeString(`${prefix}.${f}`)),
    );
  const causes: StatusCause[] = [];
  const text = (field: keyof AccessReviewSpec) => spec[field] ?? '';
  const verb = text('verb');
  const path = text('path');
  const resource = text('resource');
  if (!verb)
    causes.push({ field: `${prefix}.verb`, reason: 'FieldValueRequired', message: 'names the verb to review' });
  if (!path && !resource)
    causes.push({
      field: `${prefix}.resource`,
      reason: 'FieldValueRequired',
      message: 'names a resource, or give a path',
    });
  if (path && resource)
    causes.push({
      field: `${prefix}.path`,
      reason: 'FieldValueInvalid',
      message: 'give a resource or a path, not both',
    });
  const attrs: RequestAttributes = path
    ? { isResourceRequest: false, path, verb, apiGroup: '', resource: '', subresource: '', name: '' }
    : {
        isResourceRequest: true,
        path: '',
        verb,
        apiGroup: text('group'),
        resource,
        subresource: text('subresource'),
        name: text('name'),
      };
  if (causes.length) throw invalid({ kind: 'AccessReview' }, causes);
  return attrs;
}

/** A Kubernetes (Self)SubjectAccessReview's spec, from JSON or kubectl's protobuf. */
interface K8sReviewSpec {
  resourceAttributes?: {
    verb?: string;
    group?: string;
    resource?: string;
    subresource?: string;
    name?: string;
    namespace?: string;
    version?: string;
  };
  nonResourceAttributes?: { path?: string; verb?: string };
  user?: string;
}

async function readK8sReview(ctx: RequestContext, deps: SecurityDeps): Promise<{ spec: K8sReviewSpec }> {
  const raw = await readBody(ctx.req, deps.maxBodyBytes);
  if (mediaType(ctx.req.headers['content-type']) === PROTOBUF)
    return decodeAccessReview(raw) as { spec: K8sReviewSpec };
  const body = decodeBody(raw, ctx.req.headers['content-type']);
  const kind = ctx.info.resource === 'subjectaccessreviews' ? 'SubjectAccessReview' : 'SelfSubjectAccessReview';
  if (body !== null && (typeof body !== 'object' || Array.isArray(body)))
    throw badRequest('the request body must be a JSON object');
  const spec = objectAt<K8sReviewSpec>((body as { spec?: unknown } | null)?.spec, 'spec', kind);
  objectAt(spec.resourceAttributes, 'spec.resourceAttributes', kind);
  objectAt(spec.nonResourceAttributes, 'spec.nonResourceAttributes', kind);
  return { spec };
}

function kubernetesAnswer(
  ctx: RequestContext,
  deps: SecurityDeps,
  kind: string,
  spec: K8sReviewSpec,
  user: UserInfo,
): void {
  const r = spec.resourceAttributes;
  const n = spec.nonResourceAttributes;
  // Namespaces do not exist here: a namespace kubectl sends ("default") is ignored (docs/kubectl.md).
  const attrs = r
    ? attributesOf(
        { verb: r.verb, group: r.group ?? '', resource: r.resource || '*', subresource: r.subresource, name: r.name },
        'spec.resourceAttributes',
      )
    : attributesOf({ verb: n?.verb, path: n?.path }, 'spec.nonResourceAttributes');
  const explained = deps.authorizer.explain(user, attrs);
  const { allowed } = explained;
  // Kubernetes' reviews have no conditions: a conditional grant is not allowed, and its reason says where it holds.
  const conditions = allowed ? [] : usableConditionsOf(deps.authorizer, deps.conditionalObjects, user, attrs);
  const reason = conditions.length ? `only for objects where ${describeConditions(conditions)}` : explained.reason;
  sendJson(ctx.res, 201, {
    apiVersion: `${K8S_AUTHORIZATION_GROUP}/v1`,
    kind,
    metadata: { creationTimestamp: null },
    spec,
    status: { allowed, reason },
  });
}
