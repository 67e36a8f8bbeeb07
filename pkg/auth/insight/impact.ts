import {
  ANONYMOUS_ROLE,
  computeEffective,
  RoleGraphWithChange,
  rolesAffectedBy,
  ruleCovered,
  uncoveredRules,
  withAdmissionStamp,
  type EffectiveRole,
  type PolicyRule,
  type ReversibleRoleGraph,
  type RoleGraph,
  type Role,
} from '../rbac';
import { LOGGED_IN_GROUPS } from '../user';
import { jsonEqual } from '../../util/json-equal';
import type { IndexedBinding } from './access-index';
import { ruleKey } from './provenance';

/**
 * What a change would do to who may do what (an access impact review),
 * without making it: the role graph as it would be (`RoleGraphWithChange`)
 * and the bindings as they would be, each role's effective rules computed by
 * `computeEffective` (what the aggregation controller materialises and the
 * authoriser then enforces) before and after, and per user the rules and UI
 * permissions gained and lost. A rule counts as gained only when nothing
 * held before covers it (and lost only when nothing held after does).
 */

/** What the review reads: the roles, bindings and users as they are now. */
export interface ImpactWorld {
  graph: ReversibleRoleGraph;
  bindingsOf(user: string): readonly { binding: string; role: string }[];
  /** The users the role's bindings name. */
  usersOf(role: string): readonly string[];
  binding(name: string): IndexedBinding | undefined;
  isDisabled(user: string): boolean;
  /** Whether a User object of that name exists. */
  userExists(user: string): boolean;
}

/** A role as it would be written; `role` undefined for a deletion. */
export interface RoleWrite {
  name: string;
  role: Role | undefined;
}

/** A proposed change. `undefined` for a deletion. */
export type ProposedChange =
  | { kind: 'role'; name: string; role: Role | undefined }
  /** Several roles written or deleted at once (a plugin's role templates applied or removed). */
  | { kind: 'roles'; roles: readonly RoleWrite[] }
  | { kind: 'binding'; name: string; binding: IndexedBinding | undefined }
  /** A user created, updated (`disabled`) or deleted (`exists: false`). */
  | { kind: 'user'; name: string; exists: boolean; disabled: boolean }
  /** The user's roles replaced by these (role assignment). */
  | { kind: 'assignment'; user: string; roles: string[] };

export interface UserAccessChange {
  user: string;
  gained: PolicyRule[];
  lost: PolicyRule[];
  uiPermissionsGained: string[];
  uiPermissionsLost: string[];
}

export interface AccessImpact {
  usersAffected: number;
  /** Every affected user, sorted by name. */
  changes: UserAccessChange[];
  anonymousGained: PolicyRule[];
  anonymousLost: PolicyRule[];
  /** What every logged-in user gains or loses through `authenticated` (not repeated in `changes`). */
  authenticatedGained: PolicyRule[];
  authenticatedLost: PolicyRule[];
}

/** The effective rules of roles over one graph, each computed once per review. */
class Effective {
  private readonly cache = new Map<string, EffectiveRole>();
  constructor(readonly graph: RoleGraph) {}

  of(role: string): EffectiveRole {
    let effective = this.cache.get(role);
    if (effective === undefined) this.cache.set(role, (effective = computeEffective(this.graph, role)));
    return effective;
  }

  /** The rules and UI permissions of several roles together. */
  union(roles: readonly string[]): { rules: PolicyRule[]; ui: Set<string> } {
    const rules = new Map<string, PolicyRule>();
    const ui = new Set<string>();
    for (const role of roles) {
      const effective = this.of(role);
      for (const rule of effective.rules) rules.set(ruleKey(rule), rule);
      for (const permission of effective.uiPermissions) ui.add(permission);
    }
    return { rules: [...rules.values()], ui };
  }
}

export function accessImpact(world: ImpactWorld, change: ProposedChange): AccessImpact {
  const before = new Effective(world.graph);
  const writes = roleWrites(change);
  const after = writes.length ? new Effective(graphWith(world.graph, writes)) : before;
  const subjects = subjectsOf(world, change, before, after);
  const memo = new Map<string, Omit<UserAccessChange, 'user'>>();
  const changes: UserAccessChange[] = [];
  for (const user of [...subjects].sort()) {
    const was = rolesHeld(world, user, change, false);
    const will = rolesHeld(world, user, change, true);
    const key = `${was.join('\0')}\n${will.join('\0')}`;
    let diff = memo.get(key);
    if (diff === undefined) memo.set(key, (diff = difference(before.union(was), after.union(will))));
    if (diff.gained.length || diff.lost.length || diff.uiPermissionsGained.length || diff.uiPermissionsLost.length)
      changes.push({ user, ...diff });
  }
  const anonymous = difference(before.union([ANONYMOUS_ROLE]), after.union([ANONYMOUS_ROLE]));
  const authenticated = difference(before.union([...LOGGED_IN_GROUPS]), after.union([...LOGGED_IN_GROUPS]));
  return {
    usersAffected: changes.length,
    changes,
    anonymousGained: anonymous.gained,
    anonymousLost: anonymous.lost,
    authenticatedGained: authenticated.gained,
    authenticatedLost: authenticated.lost,
  };
}

/** The users whose held roles or whose roles' grants the change may move. */
function subjectsOf(world: ImpactWorld, change: ProposedChange, before: Effective, after: Effective): Set<string> {
  switch (change.kind) {
    case 'role':
    case 'roles':
      return usersOfChangedRoles(world, roleWrites(change), before, after);
    case 'binding':
      return new Set([...(world.binding(change.name)?.subjects ?? []), ...(change.binding?.subjects ?? [])]);
    case 'user':
      return new Set([change.name]);
    case 'assignment':
      return new Set([change.user]);
  }
}

/** The roles a change writes or deletes. */
function roleWrites(change: ProposedChange): readonly RoleWrite[] {
  if (change.kind === 'role') return [change];
  return change.kind === 'roles' ? change.roles : [];
}

/** The role graph with every write made, each written role stamped as admitted (as the role write check does). */
function graphWith(graph: ReversibleRoleGraph, writes: readonly RoleWrite[]): ReversibleRoleGraph {
  return writes.reduce<ReversibleRoleGraph>(
    (next, { name, role }) =>
      new RoleGraphWithChange(next, name, role === undefined ? undefined : withAdmissionStamp(role)),
    graph,
  );
}

/** The users bound to a role whose effective rules or UI permissions the written roles change. */
function usersOfChangedRoles(
  world: ImpactWorld,
  writes: readonly RoleWrite[],
  before: Effective,
  after: Effective,
): Set<string> {
  const users = new Set<string>();
  const next = after.graph as ReversibleRoleGraph;
  const affected = new Set<string>();
  for (const { name } of writes) {
    for (const role of rolesAffectedBy(world.graph, name)) affected.add(role);
    for (const role of rolesAffectedBy(next, name)) affected.add(role);
  }
  for (const role of affected) {
    const was = before.of(role);
    const will = after.of(role);
    if (jsonEqual(was.rules, will.rules) && jsonEqual(was.uiPermissions, will.uiPermissions)) continue;
    for (const user of world.usersOf(role)) users.add(user);
  }
  return users;
}

/** Whether the user can act (log in) before or after the change: not disabled, and existing when the change is about them. */
function canAct(world: ImpactWorld, user: string, change: ProposedChange, afterChange: boolean): boolean {
  if (change.kind !== 'user' || change.name !== user) return !world.isDisabled(user);
  if (afterChange) return change.exists && !change.disabled;
  return world.userExists(user) && !world.isDisabled(user);
}

/** The roles `user` holds before (`afterChange` false) or after the change, sorted; `[]` when they cannot act. */
function rolesHeld(world: ImpactWorld, user: string, change: ProposedChange, afterChange: boolean): string[] {
  if (!canAct(world, user, change, afterChange)) return [];
  const roles = new Set<string>(LOGGED_IN_GROUPS);
  for (const role of boundRoles(world, user, afterChange ? change : undefined)) roles.add(role);
  return [...roles].sort();
}

/** The roles bound to `user` now, or as `change` would leave them. */
function boundRoles(world: ImpactWorld, user: string, change: ProposedChange | undefined): string[] {
  if (change?.kind === 'assignment' && change.user === user) return change.roles;
  const changedBinding = change?.kind === 'binding' ? change : undefined;
  const roles = world
    .bindingsOf(user)
    .filter(({ binding }) => binding !== changedBinding?.name)
    .map(({ role }) => role);
  if (changedBinding?.binding?.subjects.includes(user)) roles.push(changedBinding.binding.role);
  return roles;
}

/** Rules held after and not covered by those held before (gained), and the reverse (lost); UI permissions likewise. */
function difference(
  was: { rules: PolicyRule[]; ui: Set<string> },
  will: { rules: PolicyRule[]; ui: Set<string> },
): Omit<UserAccessChange, 'user'> {
  return {
    gained: uncoveredNew(was.rules, will.rules),
    lost: uncoveredNew(will.rules, was.rules),
    uiPermissionsGained: [...will.ui].filter((p) => !was.ui.has(p)).sort(),
    uiPermissionsLost: [...was.ui].filter((p) => !will.ui.has(p)).sort(),
  };
}

/**
 * The rules of `next` that `held` does not cover, each narrowed to its verbs not covered (a rule `get, delete`
 * where `get` was held already is gained as `delete`); rules present in both are skipped without a coverage check.
 */
function uncoveredNew(held: PolicyRule[], next: PolicyRule[]): PolicyRule[] {
  const keys = new Set(held.map(ruleKey));
  const candidates = next.filter((rule) => !keys.has(ruleKey(rule)));
  if (candidates.length === 0) return [];
  return uncoveredRules(held, candidates).map((rule) => ({
    ...rule,
    verbs: rule.verbs.filter((verb) => !ruleCovered(held, { ...rule, verbs: [verb] })),
  }));
}
