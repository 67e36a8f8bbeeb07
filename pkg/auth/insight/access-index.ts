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

  /** Grows with every role change: what is worked out from the roles alone holds while it stays. */
  rolesVersion = 0;

  /** Sets a role as the authoriser enforces it now, or removes it (`undefined`). */
  roleChanged(name: string, role: EnforcedRole | undefined): void {
    this.rolesVersion++;
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
      this.unions.clear();
      this.bindings.delete(name);
    }
    if (binding === undefined) return;
    this.bindings.set(name, binding);
    let users = this.usersByRole.get(binding.role);
    if (users === undefined) this.usersByRole.set(binding.role, (users = new Map()));
    for (const subject of new Set(binding.subjects)) users.set(subject, (users.get(subject) ?? 0) + 1);
    this.sortedUsers.delete(binding.role);
    this.unions.clear();
  }

  /** Records whether a user is disabled (who-can leaves disabled users out). */
  userChanged(name: string, disabled: boolean): void {
    if (disabled) this.disabled.add(name);
    else this.disabled.delete(name);
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
  rolesAllowing(attrs: RequestAttributes, only?: (role: EnforcedRole) => boolean): string[] {
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
      const ruleSet = enforced.ruleSet;
      if (ruleSet.allowsPrepared(request) !== undefined || ruleSet.conditionalMatches(attrs).length > 0)
        allowing.push(role);
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
      union = mergeSorted(roles.map((role) => this.usersOf(role)));
      if (this.unions.size >= MAX_UNIONS) this.unions.delete(this.unions.keys().next().value!);
      this.unions.set(key, union);
    }
    return union;
  }
}

/** How many unions of role sets the index keeps between binding changes. */
const MAX_UNIONS = 1024;

/** The sorted union of sorted lists, each value once: merged in halves (n log k), never sorted again. */
function mergeSorted(lists: readonly (readonly string[])[]): string[] {
  if (lists.length === 0) return [];
  if (lists.length === 1) return [...lists[0]];
  const middle = lists.length >>> 1;
  return mergeTwo(mergeSorted(lists.slice(0, middle)), mergeSorted(lists.slice(middle))) as string[];
}

function mergeTwo(a: readonly string[], b: readonly string[]): readonly string[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] < b[j]) out.push(a[i++]);
    else if (b[j] < a[i]) out.push(b[j++]);
    else {
      out.push(a[i++]);
      j++;
    }
  }
  while (i < a.length) out.push(a[i++]);
  while (j < b.length) out.push(b[j++]);
  return out;
}
