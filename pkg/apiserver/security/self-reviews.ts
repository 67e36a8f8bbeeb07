import { badRequest, invalid, type StatusCause } from '../../api/errors';
import { whatCan } from '../../auth/insight/what-can';
import type { UserInfo } from '../../auth/user';
import type { RequestContext } from '../context';
import { decodeBody, mediaType, readBody } from '../body';
import { checkSelfSubjectReview, decodeSelfSubjectRulesReview } from '../k8s-protobuf/self-reviews';
import { sendJson } from '../respond';
import type { RouteTable } from '../routes';
import { requireVerb, type SecurityDeps } from './deps';
import { permissionsOf } from './permissions';
import { isPlainObject } from '../../api/plain-object';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
/** The `extra` key of `kubectl auth whoami` that lists the caller's roles. */
export const ROLES_EXTRA = 'svc.run/roles';

/**
 * Kubernetes' self reviews, for kubectl (docs/kubectl.md; JSON or kubectl's protobuf in, JSON out):
 * - `POST /apis/authentication.k8s.io/v1/selfsubjectreviews` — `kubectl auth whoami`: the caller's
 *   name, uid, groups, and their roles under `extra["svc.run/roles"]`;
 * - `POST /apis/authorization.k8s.io/v1/selfsubjectrulesreviews` — `kubectl auth can-i --list`: the
 *   rules of every role the caller holds (bindings within a token's role limit, then `authenticated`
 *   and `anonymous`). The namespace kubectl sends is echoed and ignored: nothing is namespaced here.
 */
export function registerSelfReviewRoutes(routes: RouteTable, deps: SecurityDeps): void {
  routes.add(
    { group: 'authentication.k8s.io', version: 'v1', resource: 'selfsubjectreviews', selfService: true },
    async (ctx) => {
      requireVerb(ctx, 'create');
      const raw = await readBody(ctx.req, deps.maxBodyBytes);
      if (isProtobuf(ctx)) checkSelfSubjectReview(raw);
      sendJson(ctx.res, 201, {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'SelfSubjectReview',
        metadata: { creationTimestamp: null },
        status: { userInfo: userInfoOf(ctx.user, deps) },
      });
    },
  );
  routes.add(
    { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectrulesreviews', selfService: true },
    async (ctx) => {
      requireVerb(ctx, 'create');
      const raw = await readBody(ctx.req, deps.maxBodyBytes);
      const spec = isProtobuf(ctx) ? decodeSelfSubjectRulesReview(raw).spec : jsonSpec(raw, ctx);
      sendJson(ctx.res, 201, {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectRulesReview',
        metadata: { creationTimestamp: null },
        spec,
        status: rulesOf(ctx.user, deps),
      });
    },
  );
}

const isProtobuf = (ctx: RequestContext) => mediaType(ctx.req.headers['content-type']) === PROTOBUF;

/**
 * A SelfSubjectRulesReview's spec from JSON or YAML: an object whose `namespace`, when present, is a string
 * (400 for a body that is no object, 422 naming a field of the wrong type); it is echoed in the answer.
 */
function jsonSpec(raw: Buffer, ctx: RequestContext): Record<string, unknown> {
  const body = decodeBody(raw, ctx.req.headers['content-type']);
  if (body === null || body === undefined) return {};
  if (!isPlainObject(body)) throw badRequest('the request body must be a JSON object');
  const spec = body.spec ?? {};
  if (!isPlainObject(spec)) throw invalid({ kind: RULES_REVIEW }, [wrongType('spec', 'must be an object')]);
  if (spec.namespace !== undefined && typeof spec.namespace !== 'string')
    throw invalid({ kind: RULES_REVIEW }, [wrongType('spec.namespace', 'must be a string')]);
  return spec;
}

const RULES_REVIEW = 'SelfSubjectRulesReview';
const wrongType = (field: string, message: string): StatusCause => ({ field, reason: 'FieldValueInvalid', message });

function userInfoOf(user: UserInfo, deps: SecurityDeps) {
  const info: Record<string, unknown> = { username: user.name };
  if (user.uid) info.uid = user.uid;
  info.groups = user.groups;
  info.extra = { [ROLES_EXTRA]: permissionsOf(user, deps).roles };
  return info;
}

/**
 * A SelfSubjectRulesReview's status: the subject rules review's `resourceRules` and `nonResourceRules`, without
 * provenance. Kubernetes' rules have no conditions, so conditional rules are left out (shown as they are they would
 * read as grants of every object): the review is then `incomplete`, and `evaluationError` says why.
 */
export function rulesOf(user: UserInfo, deps: Pick<SecurityDeps, 'cache'>) {
  const { resourceRules, nonResourceRules } = whatCan(deps.cache, user);
  const unconditional = resourceRules.filter((rule) => rule.where === undefined);
  const conditional = resourceRules.length - unconditional.length;
  return {
    resourceRules: unconditional.map(({ via: _via, ...rule }) => rule),
    nonResourceRules: nonResourceRules.map(({ via: _via, ...rule }) => rule),
    incomplete: conditional > 0,
    ...(conditional > 0 && {
      evaluationError:
        `${conditional} conditional rule(s) (allowed only for some objects) are not listed: ` +
        `an access review with the object's name decides them`,
    }),
  };
}
