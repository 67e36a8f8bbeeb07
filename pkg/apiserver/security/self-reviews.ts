import { heldRoles, type PolicyRule } from '../../auth/rbac';
import type { UserInfo } from '../../auth/user';
import type { RequestContext } from '../context';
import { decodeBody, mediaType, readBody } from '../body';
import { checkSelfSubjectReview, decodeSelfSubjectRulesReview } from '../k8s-protobuf/self-reviews';
import { sendJson } from '../respond';
import type { RouteTable } from '../routes';
import { requireVerb, type SecurityDeps } from './deps';
import { permissionsOf } from './permissions';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
/** The `extra` key of `kubectl auth whoami` that lists the caller's roles. */
export const ROLES_EXTRA = 'svc.run/roles';

/**
 * Kubernetes' self reviews, for kubectl (API.md §10; JSON or kubectl's protobuf in, JSON out):
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
        status: { ...rulesOf(ctx.user, deps), incomplete: false },
      });
    },
  );
}

const isProtobuf = (ctx: RequestContext) => mediaType(ctx.req.headers['content-type']) === PROTOBUF;

function jsonSpec(raw: Buffer, ctx: RequestContext): Record<string, unknown> {
  const body = decodeBody(raw, ctx.req.headers['content-type']) as { spec?: Record<string, unknown> } | null;
  return body?.spec ?? {};
}

function userInfoOf(user: UserInfo, deps: SecurityDeps) {
  const info: Record<string, unknown> = { username: user.name };
  if (user.uid) info.uid = user.uid;
  info.groups = user.groups;
  info.extra = { [ROLES_EXTRA]: permissionsOf(user, deps).roles };
  return info;
}

/** A SelfSubjectRulesReview's `resourceRules` and `nonResourceRules`, each rule once. */
export function rulesOf(user: UserInfo, deps: Pick<SecurityDeps, 'cache'>) {
  const rules = new Map<string, PolicyRule>();
  for (const held of heldRoles(deps.cache, user)) {
    if (held.limited || held.enforced === undefined) continue;
    for (const rule of held.enforced.ruleSet.rules) rules.set(JSON.stringify(rule), rule);
  }
  const all = [...rules.values()];
  return {
    resourceRules: all.filter((r) => r.resources?.length).map(resourceRule),
    nonResourceRules: all
      .filter((r) => r.nonResourceURLs?.length)
      .map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs })),
  };
}

function resourceRule(rule: PolicyRule) {
  const out: Record<string, unknown> = {
    verbs: rule.verbs,
    apiGroups: rule.apiGroups ?? [],
    resources: rule.resources,
  };
  if (rule.resourceNames?.length) out.resourceNames = rule.resourceNames;
  return out;
}
