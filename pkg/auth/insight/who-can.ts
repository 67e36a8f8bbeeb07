import type { RequestAttributes } from '../attributes';
import { ANONYMOUS_ROLE, AUTHENTICATED_ROLE, type PolicyRule, type RbacSource } from '../rbac';
import type { AccessIndex } from './access-index';
import { conditionOf, originIndex, ruleKey, type Via } from './provenance';

/**
 * Who can do something (a resource access review): the users whose bindings
 * hold a role that allows the request, each with every binding → role →
 * path → rule that grants it, sorted by name and paged. A grant through
 * `anonymous` or `authenticated` is a flag, not a list of everyone. Disabled
 * users are left out.
 */

/** One user who can, and how. `conditions`: present when every grant carries a condition (`where`). */
export interface WhoCanUser {
  name: string;
  via: Via[];
  conditions?: Record<string, unknown>[];
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
  conditions: Record<string, unknown>[] | undefined;
}

export function whoCan(
  index: AccessIndex,
  source: RbacSource,
  attrs: RequestAttributes,
  page: WhoCanPage,
): WhoCanAnswer {
  const roles = index.rolesAllowing(attrs);
  const allowedBy = (role: string) => roles.includes(role);
  const users = index.usersOfAny(roles);
  const disabled = index.disabledUsers();
  const grants = new Map<string, RoleGrant>();
  const grantOf = (role: string): RoleGrant => {
    let grant = grants.get(role);
    if (grant === undefined) grants.set(role, (grant = roleGrant(index, source, role, attrs)));
    return grant;
  };
  const listed: WhoCanUser[] = [];
  let i = page.after === '' ? 0 : upperBound(users, page.after);
  for (; i < users.length && listed.length < page.limit; i++) {
    if (!disabled.has(users[i])) listed.push(userEntry(source, users[i], allowedBy, grantOf));
  }
  while (i < users.length && disabled.has(users[i])) i++;
  const more = i < users.length && listed.length > 0;
  return {
    anonymous: allowedBy(ANONYMOUS_ROLE),
    authenticated: allowedBy(ANONYMOUS_ROLE) || allowedBy(AUTHENTICATED_ROLE),
    users: listed,
    total: users.length - countIn(users, disabled),
    continueAfter: more ? listed[listed.length - 1].name : '',
  };
}

/** How many of `names` are in the sorted `users`. */
function countIn(users: readonly string[], names: ReadonlySet<string>): number {
  let count = 0;
  for (const name of names) if (binarySearch(users, name) >= 0) count++;
  return count;
}

function userEntry(
  source: RbacSource,
  name: string,
  allowedBy: (role: string) => boolean,
  grantOf: (role: string) => RoleGrant,
): WhoCanUser {
  const via: Via[] = [];
  const conditions: Record<string, unknown>[] = [];
  let unconditional = false;
  for (const { binding, role } of source.bindingsOf(name)) {
    if (!allowedBy(role)) continue;
    const grant = grantOf(role);
    via.push({ binding, role, path: grant.path, rule: grant.rule });
    if (grant.conditions === undefined) unconditional = true;
    else conditions.push(...grant.conditions);
  }
  return unconditional || conditions.length === 0 ? { name, via } : { name, via, conditions };
}

/** The rule the role's compiled rules allow the request with, traced to the own rule it comes from. */
function roleGrant(index: AccessIndex, source: RbacSource, role: string, attrs: RequestAttributes): RoleGrant {
  const enforced = index.role(role)!;
  const effective = enforced.ruleSet.allows(attrs)!;
  const origin = originIndex(source, enforced).get(ruleKey(effective));
  const condition = conditionOf(effective);
  return {
    rule: origin?.rule ?? effective,
    path: origin?.path ?? [role],
    conditions: condition === undefined ? undefined : [condition],
  };
}

/** The index of `value` in the sorted `values`, or -1. */
function binarySearch(values: readonly string[], value: string): number {
  const i = lowerBound(values, value);
  return i < values.length && values[i] === value ? i : -1;
}

/** The first index whose value is not less than `value`. */
function lowerBound(values: readonly string[], value: string): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index whose value is greater than `value`. */
function upperBound(values: readonly string[], value: string): number {
  const i = lowerBound(values, value);
  return i < values.length && values[i] === value ? i + 1 : i;
}
