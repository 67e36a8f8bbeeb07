import { badRequest, forbidden, invalid, type StatusCause } from '../../api/errors';
import type { RequestAttributes } from '../../auth/attributes';
import { ANONYMOUS, LOGGED_IN_GROUPS, type UserInfo } from '../../auth/user';
import type { RequestContext } from '../context';
import { decodeBody, mediaType, readBody } from '../body';
import { decodeAccessReview } from '../k8s-protobuf/access-review';
import { sendJson } from '../respond';
import type { RouteTable } from '../routes';
import { readObjectBody, requireVerb, type SecurityDeps } from './deps';

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
 * "May this user do this, and why?" (API.md §9, §10):
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
      const spec = (body.spec ?? {}) as AccessReviewSpec;
      const attrs = attributesOf(spec, 'spec');
      const user = await reviewedUser(ctx, deps, spec.user);
      const status = deps.authorizer.explain(user, attrs);
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

/** The request an AccessReview's spec describes; 422 naming what is missing. */
function attributesOf(spec: AccessReviewSpec, prefix: string): RequestAttributes {
  const causes: StatusCause[] = [];
  const text = (field: keyof AccessReviewSpec) => {
    const value = spec[field];
    if (value !== undefined && typeof value !== 'string')
      causes.push({ field: `${prefix}.${field}`, reason: 'FieldValueInvalid', message: 'must be a string' });
    return typeof value === 'string' ? value : '';
  };
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
  const body = decodeBody(raw, ctx.req.headers['content-type']) as { spec?: K8sReviewSpec } | null;
  return { spec: body?.spec ?? {} };
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
  // Namespaces do not exist here: a namespace kubectl sends ("default") is ignored (API.md §10).
  const attrs = r
    ? attributesOf(
        { verb: r.verb, group: r.group ?? '', resource: r.resource || '*', subresource: r.subresource, name: r.name },
        'spec.resourceAttributes',
      )
    : attributesOf({ verb: n?.verb, path: n?.path }, 'spec.nonResourceAttributes');
  const { allowed, reason } = deps.authorizer.explain(user, attrs);
  sendJson(ctx.res, 201, {
    apiVersion: `${K8S_AUTHORIZATION_GROUP}/v1`,
    kind,
    metadata: { creationTimestamp: null },
    spec,
    status: { allowed, reason },
  });
}
