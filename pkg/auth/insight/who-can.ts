import type { RequestAttributes } from '../attributes';
import {
  ANONYMOUS_ROLE,
  AUTHENTICATED_ROLE,
  bindCondition,
  type EnforcedRole,
  type PolicyRule,
  type RbacSource,
  type RuleCondition,
} from '../rbac';
import { ANONYMOUS, LOGGED_IN_GROUPS, type UserInfo } from '../user';
import { lowerBound, requestKey, type AccessIndex } from './access-index';
import { originIndex, ruleKey, type Via } from './provenance';

/**
 * Who can do something (a resource access review): the users whose bindings
 * hold a role that allows the request, each with every binding → role →
 * path → rule that grants it, sorted by name and paged. A grant through
 * `anonymous` or `authenticated` is a flag, not a list of everyone. Disabled
 * users are left out.
 */

/**
 * One user who can, and how. `conditions`: present when every grant carries a condition (`where`) and the question
 * names no object, with `${user.name}` filled in.
 */
export interface WhoCanUser {
  name: string;
  via: Via[];
  conditions?: RuleCondition[];
}

export interface WhoCanAnswer {
  anonymous: boolean;
  authenticated: boolean;
  users: WhoCanUser[];
  /** Every user who can (not just this page). */
  total: number;
  /** The last user of this page when more follow, for the next question's `after`; `''` on the last page. */
  continueAfter: string;
}

export interface WhoCanPage {
  /** At most this many users (at least 1). */
  limit: number;
  /** Start after this user name (from the previous page); `''` for the first page. */
  after: string;
}

/** How a role grants the request: the rule and path from the role to it, and whether that grant is conditional. */
interface RoleGrant {
  rule: PolicyRule;
  path: string[];
  conditions: RuleCondition[] | undefined;
}

/**
 * Decides conditional grants on the object a question names: whether any of `conditions` (bound to `user`) holds
 * on it. Without it (a question without a name), users who hold only conditional grants are listed with them.
 */
export type ConditionsHold = (user: UserInfo, conditions: readonly RuleCondition[]) => boolean;

export function whoCan(
  index: AccessIndex,
  source: RbacSource,
  attrs: RequestAttributes,
  page: WhoCanPage,
  holds?: ConditionsHold,
): WhoCanAnswer {
  const roles = index.rolesAllowing(attrs);
  const users = index.usersOfAny(roles);
  const disabled = index.disabledUsers();
  const grants = new Map<string, RoleGrant>();
  const grantOf = (role: string): RoleGrant => {
    let grant = grants.get(role);
    if (grant === undefined) grants.set(role, (grant = roleGrant(index, source, role, attrs)));
    return grant;
  };
  const allowed = new Set(roles);
  const allowedBy = (role: string) => allowed.has(role);
  /** Whether everyone holding `role` (a group's role) may: outright, or when its conditions hold for `who`. */
  const groupMay = (role: string, who: UserInfo) => {
    if (!allowedBy(role)) return false;
    const conditions = grantOf(role).conditions;
    return conditions === undefined || holds === undefined || holds(who, conditions);
  };
  const entryOf = (name: string) => userEntry(source, name, allowedBy, grantOf, holds);
  const start = page.after === '' ? 0 : upperBound(users, page.after);
  // Conditional grants decided on an object can leave a user out: then every user is looked at, for an exact total.
  const { listed, total, more } =
    holds === undefined
      ? pageOf(
          users,
          start,
          page.limit,
          (name) => (disabled.has(name) ? undefined : entryOf(name)),
          index.activeCount(users),
        )
      : exactPage(users, start, page.limit, (name) => (disabled.has(name) ? undefined : entryOf(name)));
  const anonymous = groupMay(ANONYMOUS_ROLE, ANONYMOUS);
  return {
    anonymous,
    authenticated: anonymous || groupMay(AUTHENTICATED_ROLE, { name: '', groups: [AUTHENTICATED_ROLE] }),
    users: listed,
    total,
    continueAfter: more ? listed[listed.length - 1].name : '',
  };
}

/** A page of users from `start`, cut at `limit`; `total` as given (every entry found). */
function pageOf(
  users: readonly string[],
  start: number,
  limit: number,
  entryOf: (name: string) => WhoCanUser | undefined,
  total: number,
) {
  const listed: WhoCanUser[] = [];
  let i = start;
  for (; i < users.length && listed.length < limit; i++) {
    const entry = entryOf(users[i]);
    if (entry) listed.push(entry);
  }
  while (i < users.length && entryOf(users[i]) === undefined) i++;
  return { listed, total, more: i < users.length && listed.length > 0 };
}

/** A page of users from `start` when entries may be left out: every user looked at, so that `total` is exact. */
function exactPage(
  users: readonly string[],
  start: number,
  limit: number,
  entryOf: (name: string) => WhoCanUser | undefined,
) {
  const listed: WhoCanUser[] = [];
  let total = 0;
  let more = false;
  users.forEach((name, i) => {
    const entry = entryOf(name);
    if (entry === undefined) return;
    total++;
    if (i < start) return;
    if (listed.length < limit) listed.push(entry);
    else more = true;
  });
  return { listed, total, more };
}

function userEntry(
  source: RbacSource,
  name: string,
  allowedBy: (role: string) => boolean,
  grantOf: (role: string) => RoleGrant,
  holds: ConditionsHold | undefined,
): WhoCanUser | undefined {
  const user: UserInfo = { name, groups: [...LOGGED_IN_GROUPS] };
  const via: Via[] = [];
  const conditions: RuleCondition[] = [];
  let unconditional = false;
  for (const { binding, role } of source.bindingsOf(name)) {
    const grant = allowedBy(role) ? grantOf(role) : undefined;
    if (grant === undefined || !grantCounts(grant, user, holds)) continue;
    via.push({ binding, role, path: grant.path, rule: grant.rule });
    if (grant.conditions === undefined || holds !== undefined) unconditional = true;
    else conditions.push(...boundConditions(grant.conditions, user));
  }
  if (via.length === 0) return undefined;
  return unconditional ? { name, via } : { name, via, conditions };
}

/** Whether a grant counts: always without conditions; on an object a question names, when they hold there. */
const grantCounts = (grant: RoleGrant, user: UserInfo, holds: ConditionsHold | undefined) =>
  grant.conditions === undefined || holds === undefined || holds(user, grant.conditions);

/** Conditions with `${user.name}` filled in for `user` (those that can never hold for them left out). */
function boundConditions(conditions: readonly RuleCondition[], user: UserInfo): RuleCondition[] {
  return conditions.flatMap((where) => {
    const bound = bindCondition(where, user, false);
    return bound === undefined ? [] : [bound.where];
  });
}

/**
 * Grants by enforced role and request: a role's change replaces its enforced role, so a grant is kept while the
 * role it was worked out from is enforced (at most GRANTS_PER_ROLE requests a role, then it starts over).
 */
const grantsByRole = new WeakMap<EnforcedRole, Map<string, RoleGrant>>();
const GRANTS_PER_ROLE = 256;

/** The rule the role's compiled rules allow the request with, traced to the own rule it comes from. */
function roleGrant(index: AccessIndex, source: RbacSource, role: string, attrs: RequestAttributes): RoleGrant {
  const enforced = index.role(role)!;
  let grants = grantsByRole.get(enforced);
  if (grants === undefined) grantsByRole.set(enforced, (grants = new Map()));
  const key = requestKey(attrs);
  let grant = grants.get(key);
  if (grant === undefined) {
    if (grants.size >= GRANTS_PER_ROLE) grants.clear();
    grants.set(key, (grant = grantOf(source, enforced, attrs)));
  }
  return grant;
}

function grantOf(source: RbacSource, enforced: EnforcedRole, attrs: RequestAttributes): RoleGrant {
  const role = enforced.name;
  const outright = enforced.ruleSet.allows(attrs);
  const conditional = outright === undefined ? enforced.ruleSet.conditionalMatches(attrs) : [];
  const effective = outright ?? conditional[0];
  const origin = originIndex(source, enforced).get(ruleKey(effective));
  return {
    rule: origin?.rule ?? effective,
    path: origin?.path ?? [role],
    conditions: outright === undefined ? conditional.map((rule) => rule.where!) : undefined,
  };
}

/** The first index whose value is greater than `value`. */
function upperBound(values: readonly string[], value: string): number {
  const i = lowerBound(values, value);
  return i < values.length && values[i] === value ? i + 1 : i;
}
