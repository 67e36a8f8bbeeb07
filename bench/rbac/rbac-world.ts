import type { RequestAttributes } from '../../pkg/auth/attributes';
import type { UserInfo } from '../../pkg/auth/user';
import {
  AGGREGATE_TO_PREFIX,
  DEPENDENCIES_ANNOTATION,
  RESOURCE_VERBS,
  withAdmissionStamp,
  type PolicyRule,
  type Role,
} from '../../pkg/auth/rbac';

/**
 * A synthetic RBAC world for the benchmark, from a seed: roles with a
 * realistic mix of rules (groups, resources, subresources, some wildcards,
 * some resourceNames, a few URL rules), dependency and aggregation edges,
 * bindings spread over users, and requests half derived from the users' own
 * rules (mostly allowed) and half random (mostly denied).
 */

/** The shape of a world. */
export interface WorldSize {
  roles: number;
  rulesPerRole: number;
  users: number;
  bindings: number;
}

/** The generated world. */
export interface World {
  roles: Role[];
  /** user name → `{binding, role}` */
  bindings: Map<string, { binding: string; role: string }[]>;
  users: UserInfo[];
}

/** mulberry32: a small seeded PRNG, so every run measures the same world. */
export function seededRandom(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GROUPS = ['', ...Array.from({ length: 99 }, (_, i) => `g${i}.example.com`)];
const PLURALS = Array.from({ length: 40 }, (_, i) => `things${i}`);
const SUBRESOURCES = ['status', 'scale', 'log'];
const NAMES = Array.from({ length: 200 }, (_, i) => `obj-${i}`);
const URLS = ['/healthz', '/healthz/*', '/version', '/metrics', '/login', '/apis/*', '/api/*', '/openapi/*'];
const URL_VERBS = ['get', 'post', 'put', 'delete'];
/** Roles 0 and 1 are `anonymous` and `authenticated`, held by every user: small, as in practice. */
const GROUP_ROLES = 2;
const GROUP_ROLE_RULES = 10;
/** Share of roles that are templates (only rules, maybe aggregated into an assignable role); the rest are assignable. */
const TEMPLATE_SHARE = 0.7;

/** Builds the world for `size` from `seed`. */
export function buildWorld(size: WorldSize, seed = 1): World {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const several = <T>(xs: readonly T[], max: number): T[] => [
    ...new Set(Array.from({ length: 1 + Math.floor(rnd() * max) }, () => pick(xs))),
  ];

  const resource = (): string => {
    const r = rnd();
    if (r < 0.01) return '*';
    if (r < 0.02) return `*/${pick(SUBRESOURCES)}`;
    if (r < 0.12) return `${pick(PLURALS)}/${pick(SUBRESOURCES)}`;
    return pick(PLURALS);
  };
  const rule = (): PolicyRule => {
    if (rnd() < 0.05) return { verbs: several(URL_VERBS, 2), nonResourceURLs: several(URLS, 2) };
    const r: PolicyRule = {
      verbs: rnd() < 0.03 ? ['*'] : several(RESOURCE_VERBS, 3),
      apiGroups: rnd() < 0.01 ? ['*'] : [pick(GROUPS)],
      resources: [...new Set(Array.from({ length: 1 + Math.floor(rnd() * 3) }, resource))],
    };
    if (rnd() < 0.1) r.resourceNames = several(NAMES, 3);
    return r;
  };

  const templates = Math.floor(size.roles * TEMPLATE_SHARE);
  const roleName = (i: number) => (i === 0 ? 'anonymous' : i === 1 ? 'authenticated' : `role-${i}`);
  const roles: Role[] = [];
  for (let i = 0; i < size.roles; i++) {
    const annotations: Record<string, string> = {};
    const labels: Record<string, string> = {};
    if (i < templates) {
      // a template: 15% aggregate into an assignable role, 10% depend on another template
      if (rnd() < 0.15)
        labels[`${AGGREGATE_TO_PREFIX}${roleName(templates + Math.floor(rnd() * (size.roles - templates)))}`] = 'true';
      if (rnd() < 0.1)
        annotations[DEPENDENCIES_ANNOTATION] = JSON.stringify([roleName(2 + Math.floor(rnd() * (templates - 2)))]);
    } else {
      // an assignable role: depends on 1–3 templates
      annotations[DEPENDENCIES_ANNOTATION] = JSON.stringify(
        Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => roleName(2 + Math.floor(rnd() * (templates - 2)))),
      );
    }
    // Stamped as the apiserver stamps the roles its role-write check admitted, so that their edges count.
    roles.push(
      withAdmissionStamp({
        apiVersion: 'v1alpha1',
        kind: 'Role',
        metadata: { name: roleName(i), generation: 1, annotations, labels },
        rules: Array.from({ length: i < GROUP_ROLES ? GROUP_ROLE_RULES : size.rulesPerRole }, rule),
      }),
    );
  }

  const users: UserInfo[] = Array.from({ length: size.users }, (_, i) => ({
    name: `user-${i}`,
    groups: ['authenticated', 'anonymous'],
  }));
  const bindings = new Map<string, { binding: string; role: string }[]>();
  for (let b = 0; b < size.bindings; b++) {
    const user = users[b % size.users].name;
    const role =
      rnd() < 0.8
        ? roleName(templates + Math.floor(rnd() * (size.roles - templates)))
        : roleName(2 + Math.floor(rnd() * (templates - 2)));
    const list = bindings.get(user) ?? [];
    list.push({ binding: `${user}-${role}`, role });
    bindings.set(user, list);
  }
  return { roles, bindings, users };
}

/** A request allowed by `rule` (when it can be: wildcards are filled in from the pools). */
function requestFrom(rule: PolicyRule, pick: <T>(xs: readonly T[]) => T): RequestAttributes {
  const nonResource =
    rule.nonResourceURLs !== undefined && (rule.resources === undefined || rule.resources.length === 0);
  return nonResource ? nonResourceRequestFrom(rule, pick) : resourceRequestFrom(rule, pick);
}

/** `value`, or one picked from `pool` when it is the wildcard `*`. */
const filled = (value: string, pool: readonly string[], pick: <T>(xs: readonly T[]) => T): string =>
  value === '*' ? pick(pool) : value;

function nonResourceRequestFrom(rule: PolicyRule, pick: <T>(xs: readonly T[]) => T): RequestAttributes {
  const url = pick(rule.nonResourceURLs ?? []);
  const verb = pick(rule.verbs);
  return {
    isResourceRequest: false,
    path: url.endsWith('*') ? `${url.slice(0, -1)}x` : url,
    verb: filled(verb, URL_VERBS, pick),
    apiGroup: '',
    resource: '',
    subresource: '',
    name: '',
  };
}

/** The verbs whose requests name no object. */
const UNNAMED_VERBS = ['list', 'create', 'deletecollection', 'watch'];

function resourceRequestFrom(rule: PolicyRule, pick: <T>(xs: readonly T[]) => T): RequestAttributes {
  const verb = filled(pick(rule.verbs), RESOURCE_VERBS, pick);
  const group = pick(rule.apiGroups!);
  const [plural, subresource = ''] = pick(rule.resources!).split('/');
  const named = rule.resourceNames !== undefined || !UNNAMED_VERBS.includes(verb);
  // The picks run in this order (group, plural, subresource, name): the seeded world depends on it.
  const apiGroup = filled(group, GROUPS, pick);
  const resource = filled(plural, PLURALS, pick);
  const sub = filled(subresource, SUBRESOURCES, pick);
  return {
    isResourceRequest: true,
    path: '/apis/bench',
    verb,
    apiGroup,
    resource,
    subresource: sub,
    name: named ? pick(rule.resourceNames ?? NAMES) : '',
  };
}

/** A random request from the pools (mostly denied). */
function randomRequest(rnd: () => number, pick: <T>(xs: readonly T[]) => T): RequestAttributes {
  if (rnd() < 0.05) {
    return {
      isResourceRequest: false,
      path: pick(['/healthz', '/version', '/debug', '/apis']),
      verb: pick(URL_VERBS),
      apiGroup: '',
      resource: '',
      subresource: '',
      name: '',
    };
  }
  const verb = pick(RESOURCE_VERBS);
  return {
    isResourceRequest: true,
    path: '/apis/bench',
    verb,
    apiGroup: pick(GROUPS),
    resource: pick(PLURALS),
    subresource: rnd() < 0.1 ? pick(SUBRESOURCES) : '',
    name: ['list', 'create', 'deletecollection', 'watch'].includes(verb) ? '' : pick(NAMES),
  };
}

/**
 * `count` `(user, request)` pairs: half built from a rule of one of the
 * user's roles' effective rules (`rulesOf`), half random.
 */
export function buildRequests(
  world: World,
  rulesOf: (role: string) => readonly PolicyRule[],
  count: number,
  seed = 2,
): { user: UserInfo; attrs: RequestAttributes }[] {
  const rnd = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const requests: { user: UserInfo; attrs: RequestAttributes }[] = [];
  while (requests.length < count) {
    const user = pick(world.users);
    const bound = world.bindings.get(user.name) ?? [];
    if (rnd() < 0.5 && bound.length > 0) {
      const rules = rulesOf(pick(bound).role);
      if (rules.length === 0) continue;
      requests.push({ user, attrs: requestFrom(pick(rules), pick) });
    } else {
      requests.push({ user, attrs: randomRequest(rnd, pick) });
    }
  }
  return requests;
}
