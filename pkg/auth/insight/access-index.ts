import type { RequestAttributes } from '../attributes';
import { ANY, prepareRequest, type EnforcedRole } from '../rbac';

/**
 * The reverse index behind "who can": from what a rule names (group and
 * resource, or "a URL rule") to the roles whose enforced rules name it, and
 * from each role to the users its bindings name. Kept current change by
 * change (a role, a binding, a user's `disabled`), so that a question costs
 * a few lookups and a check of the candidate roles, never a scan of every
 * binding.
 */

/** A binding as the index needs it; `undefined` for one deleted or marked for deletion. */
export interface IndexedBinding {
  role: string;
  subjects: readonly string[];
}

const URL_KEY = '\0url';
const keyOf = (group: string, plural: string) => `${group}\0${plural}`;

/** The plural a rule's resource entry is about: `persons` for `persons/status`, `*` for `*` and `*<slash>status`. */
function pluralOf(resource: string): string {
  const slash = resource.indexOf('/');
  return slash < 0 ? resource : resource.slice(0, slash);
}

/** What the role's enforced rules name: a key per (group, plural), and one for all URL rules. */
function targetKeysOf(role: EnforcedRole): string[] {
  const keys = new Set<string>();
  for (const rule of role.ruleSet.rules) {
    if (rule.nonResourceURLs?.length) keys.add(URL_KEY);
    if (!rule.resources?.length) continue;
    for (const group of rule.apiGroups ?? []) {
      for (const resource of rule.resources) keys.add(keyOf(group, pluralOf(resource)));
    }
  }
  return [...keys];
}

export class AccessIndex {
  private readonly rolesByKey = new Map<string, Set<string>>();
  private readonly keysByRole = new Map<string, string[]>();
  private readonly enforced = new Map<string, EnforcedRole>();
  private readonly bindings = new Map<string, IndexedBinding>();
  /** role → user → how many bindings of the role name the user */
  private readonly usersByRole = new Map<string, Map<string, number>>();
  /** role → its users sorted, built on demand and dropped when its bindings change */
  private readonly sortedUsers = new Map<string, string[]>();
  private readonly disabled = new Set<string>();
  /** The sorted union of the users of several roles, for the last few role sets asked about; cleared on any binding change. */
  private readonly unions = new Map<string, string[]>();
  /** Every user a binding has named, sorted: a union is marked by position in it, then read off in order. */
  private ordered: string[] = [];
  private positions = new Map<string, number>();
  /** Whether a binding has named a user `ordered` lacks (it is sorted again when next needed). */
  private orderStale = false;
  /** role → the positions in `ordered` of its users; dropped with `sortedUsers`, and all when `ordered` changes. */
  private readonly rolePositions = new Map<string, Int32Array>();
  /**
   * The roles allowing a request, for the last few requests asked about, as of `rolesVersion` `at`: brought up to
   * date from `changedRoles` when asked again, by checking only the roles changed since.
   */
  private readonly allowing = new Map<string, { roles: readonly string[]; at: number }>();
  /** The role changed at each version since `changedFrom` (the version the first entry brought). */
  private changedRoles: string[] = [];
  private changedFrom = 1;
  /** How many users of a union are active (not disabled), by union; cleared with the unions and on a user change. */
  private activeCounts = new WeakMap<readonly string[], number>();

  /** Grows with every role change: what is worked out from the roles alone holds while it stays. */
  rolesVersion = 0;

  /** Sets a role as the authoriser enforces it now, or removes it (`undefined`). */
  roleChanged(name: string, role: EnforcedRole | undefined): void {
    this.rolesVersion++;
    this.changedRoles.push(name);
    // Past the catching up worth doing, every kept answer is worked out afresh.
    if (this.changedRoles.length > MAX_CATCH_UP) {
      this.allowing.clear();
      this.changedRoles = [];
      this.changedFrom = this.rolesVersion + 1;
    }
    for (const key of this.keysByRole.get(name) ?? []) {
      const roles = this.rolesByKey.get(key)!;
      roles.delete(name);
      if (roles.size === 0) this.rolesByKey.delete(key);
    }
    this.keysByRole.delete(name);
    this.enforced.delete(name);
    if (role === undefined) return;
    this.enforced.set(name, role);
    const keys = targetKeysOf(role);
    for (const key of keys) {
      let roles = this.rolesByKey.get(key);
      if (roles === undefined) this.rolesByKey.set(key, (roles = new Set()));
      roles.add(name);
    }
    this.keysByRole.set(name, keys);
  }

  /** Sets a binding, or removes it (`undefined`: deleted, or marked for deletion). */
  bindingChanged(name: string, binding: IndexedBinding | undefined): void {
    const previous = this.bindings.get(name);
    if (previous !== undefined) {
      const users = this.usersByRole.get(previous.role)!;
      for (const subject of new Set(previous.subjects)) {
        const count = users.get(subject)! - 1;
        if (count === 0) users.delete(subject);
        else users.set(subject, count);
      }
      if (users.size === 0) this.usersByRole.delete(previous.role);
      this.sortedUsers.delete(previous.role);
      this.rolePositions.delete(previous.role);
      this.unions.clear();
      this.bindings.delete(name);
    }
    if (binding === undefined) return;
    this.bindings.set(name, binding);
    let users = this.usersByRole.get(binding.role);
    if (users === undefined) this.usersByRole.set(binding.role, (users = new Map()));
    for (const subject of new Set(binding.subjects)) {
      users.set(subject, (users.get(subject) ?? 0) + 1);
      if (!this.positions.has(subject)) this.orderStale = true;
    }
    this.sortedUsers.delete(binding.role);
    this.rolePositions.delete(binding.role);
    this.unions.clear();
  }

  /** Records whether a user is disabled (who-can leaves disabled users out). */
  userChanged(name: string, disabled: boolean): void {
    if (disabled === this.disabled.has(name)) return;
    if (disabled) this.disabled.add(name);
    else this.disabled.delete(name);
    this.activeCounts = new WeakMap();
  }

  isDisabled(name: string): boolean {
    return this.disabled.has(name);
  }

  /** Every disabled user. */
  disabledUsers(): ReadonlySet<string> {
    return this.disabled;
  }

  /**
   * The roles whose rules allow the request: outright, or for the objects a condition of theirs matches; sorted by
   * name. With `only`, just the candidates it accepts are checked (a cheap test that spares the rules' check).
   */
  rolesAllowing(attrs: RequestAttributes, only?: (role: EnforcedRole) => boolean): readonly string[] {
    if (only !== undefined) return this.checkCandidates(attrs, only);
    const key = requestKey(attrs);
    const kept = this.allowing.get(key);
    if (kept !== undefined && kept.at === this.rolesVersion) return kept.roles;
    const roles =
      kept !== undefined && kept.at >= this.changedFrom - 1 ? this.caughtUp(kept, attrs) : this.checkCandidates(attrs);
    if (kept === undefined && this.allowing.size >= MAX_REQUESTS)
      this.allowing.delete(this.allowing.keys().next().value!);
    this.allowing.set(key, { roles, at: this.rolesVersion });
    return roles;
  }

  /** A kept answer with each role changed since it was worked out checked again (a new array: answers are shared). */
  private caughtUp(kept: { roles: readonly string[]; at: number }, attrs: RequestAttributes): string[] {
    const changed = new Set(this.changedRoles.slice(kept.at - this.changedFrom + 1));
    const roles = kept.roles.filter((role) => !changed.has(role));
    const request = prepareRequest(attrs);
    for (const role of changed) {
      const enforced = this.enforced.get(role);
      if (enforced !== undefined && allowsSome(enforced, request, attrs)) roles.push(role);
    }
    return roles.sort();
  }

  /** The candidate roles of the request's keys, each checked with its compiled rules. */
  private checkCandidates(attrs: RequestAttributes, only?: (role: EnforcedRole) => boolean): string[] {
    const candidates = new Set<string>();
    const keys = attrs.isResourceRequest
      ? [keyOf(attrs.apiGroup, attrs.resource), keyOf(attrs.apiGroup, ANY), keyOf(ANY, attrs.resource), keyOf(ANY, ANY)]
      : [URL_KEY];
    for (const key of keys) for (const role of this.rolesByKey.get(key) ?? []) candidates.add(role);
    const allowing: string[] = [];
    const request = prepareRequest(attrs);
    for (const role of candidates) {
      const enforced = this.enforced.get(role)!;
      if (only !== undefined && !only(enforced)) continue;
      if (allowsSome(enforced, request, attrs)) allowing.push(role);
    }
    return allowing.sort();
  }

  /** The role as the index holds it (as the authoriser enforces it). */
  role(name: string): EnforcedRole | undefined {
    return this.enforced.get(name);
  }

  /** The users the role's bindings name, sorted (disabled ones included). */
  usersOf(role: string): readonly string[] {
    let sorted = this.sortedUsers.get(role);
    if (sorted === undefined) {
      sorted = [...(this.usersByRole.get(role)?.keys() ?? [])].sort();
      this.sortedUsers.set(role, sorted);
    }
    return sorted;
  }

  /**
   * How many of `users` (a list `usersOfAny` answered) are not disabled: counted once per list, by looking up each
   * disabled user in it rather than walking it.
   */
  activeCount(users: readonly string[]): number {
    let count = this.activeCounts.get(users);
    if (count === undefined) {
      count = users.length;
      for (const name of this.disabled) if (contains(users, name)) count--;
      this.activeCounts.set(users, count);
    }
    return count;
  }

  /** Whether a binding of `role` names `user`. */
  binds(role: string, user: string): boolean {
    return this.usersByRole.get(role)?.has(user) === true;
  }

  /** The users the bindings of any of `roles` name, sorted, each once (disabled ones included). */
  usersOfAny(roles: readonly string[]): readonly string[] {
    if (roles.length === 1) return this.usersOf(roles[0]);
    const key = roles.join('\0');
    let union = this.unions.get(key);
    if (union === undefined) {
      union = this.union(roles);
      if (this.unions.size >= MAX_UNIONS) this.unions.delete(this.unions.keys().next().value!);
      this.unions.set(key, union);
    }
    return union;
  }

  /**
   * The users of `roles`, sorted, each once: each role's users marked by their position in the sorted list of every
   * bound user, then read off in order (linear in the users, where merging sorted lists would copy them per level).
   */
  private union(roles: readonly string[]): string[] {
    if (this.orderStale) this.reorder();
    const marked = new Uint8Array(this.ordered.length);
    let count = 0;
    for (const role of roles) {
      for (const at of this.positionsOf(role)) {
        if (marked[at] === 0) count++;
        marked[at] = 1;
      }
    }
    const union = new Array<string>(count);
    for (let at = 0, i = 0; i < count; at++) if (marked[at] === 1) union[i++] = this.ordered[at];
    return union;
  }

  private positionsOf(role: string): Int32Array {
    let positions = this.rolePositions.get(role);
    if (positions === undefined) {
      const users = this.usersByRole.get(role);
      positions = new Int32Array(users?.size ?? 0);
      let i = 0;
      for (const user of users?.keys() ?? []) positions[i++] = this.positions.get(user)!;
      this.rolePositions.set(role, positions);
    }
    return positions;
  }

  /** Sorts every user bindings name (users no longer named stay: a role's positions never point to them). */
  private reorder(): void {
    const all = new Set(this.ordered);
    for (const users of this.usersByRole.values()) for (const user of users.keys()) all.add(user);
    this.ordered = [...all].sort();
    this.positions = new Map(this.ordered.map((user, at) => [user, at]));
    this.rolePositions.clear();
    this.orderStale = false;
  }
}

/** How many unions of role sets the index keeps between binding changes. */
const MAX_UNIONS = 1024;
/** How many requests' allowing roles the index keeps. */
const MAX_REQUESTS = 4096;
/** How many role changes a kept answer is brought up to date across; past that, answers are worked out afresh. */
const MAX_CATCH_UP = 256;

/** Whether the role's rules allow the request outright, or for the objects a condition of theirs matches. */
const allowsSome = (role: EnforcedRole, request: ReturnType<typeof prepareRequest>, attrs: RequestAttributes) =>
  role.ruleSet.allowsPrepared(request) !== undefined || role.ruleSet.conditionalMatches(attrs).length > 0;

/** What decides which roles allow a request: every attribute a rule can name. */
export const requestKey = (attrs: RequestAttributes) =>
  attrs.isResourceRequest
    ? `${attrs.verb}\0${attrs.apiGroup}\0${attrs.resource}\0${attrs.subresource}\0${attrs.name}`
    : `\0url\0${attrs.verb}\0${attrs.path}`;

/** Whether sorted `values` holds `value`. */
function contains(values: readonly string[], value: string): boolean {
  const at = lowerBound(values, value);
  return at < values.length && values[at] === value;
}

/** The first index of sorted `values` whose value is not less than `value` (binary search). */
export function lowerBound(values: readonly string[], value: string): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
