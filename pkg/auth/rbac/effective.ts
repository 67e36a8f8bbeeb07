import { isAdmitted } from './admission';
import {
  aggregationTargetsOf,
  dependenciesOf,
  uiPermissionsOf,
  type PolicyRule,
  type RefusedContributor,
  type Role,
  type RoleContributor,
  type RoleStatus,
  type RuleCondition,
} from './types';

/**
 * A role's effective rules (docs/security.md): its own, those of its dependencies,
 * and those of every role aggregated into it, transitively along both kinds
 * of edge (an aggregated role's dependencies and the roles aggregated into
 * it count too, unlike Halo), cycle-safe.
 */

/** The roles an effective-rules computation can see. */
export interface RoleGraph {
  role(name: string): Role | undefined;
  /** names of roles labelled aggregate-to-<target>: "true" */
  aggregatedInto(target: string): Iterable<string>;
}

/** A role graph that can also walk edges backwards, for finding the roles a change affects. */
export interface ReversibleRoleGraph extends RoleGraph {
  /** names of roles whose dependencies annotation lists `name` */
  dependentsOf(name: string): Iterable<string>;
}

/** The effective part of a role's status. */
export type EffectiveRole = Omit<RoleStatus, 'observedGeneration'>;

function sortedUnique(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

/** A rule with each list sorted and de-duplicated and empty lists left out: equal rules look equal. */
export function canonicalRule(rule: PolicyRule): PolicyRule {
  const canonical: PolicyRule = { verbs: sortedUnique(rule.verbs ?? []) };
  for (const field of ['apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const) {
    const values = rule[field];
    if (values !== undefined && values.length > 0) canonical[field] = sortedUnique(values);
  }
  // A condition is part of the grant: a rule that lost it would allow every object.
  if (rule.where !== undefined) {
    const where: RuleCondition = {};
    if (rule.where.fieldSelector !== undefined) where.fieldSelector = rule.where.fieldSelector;
    if (rule.where.labelSelector !== undefined) where.labelSelector = rule.where.labelSelector;
    canonical.where = where;
  }
  return canonical;
}

function ruleKey(rule: PolicyRule): string {
  return JSON.stringify([
    rule.verbs,
    rule.apiGroups ?? null,
    rule.resources ?? null,
    rule.resourceNames ?? null,
    rule.nonResourceURLs ?? null,
    rule.where ?? null,
  ]);
}

/**
 * Rules canonicalised, de-duplicated and sorted, so that the same set of
 * rules always comes out the same (a controller writes only on change).
 */
export function canonicalRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const byKey = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const canonical = canonicalRule(rule);
    const key = ruleKey(canonical);
    if (!byKey.has(key)) byKey.set(key, canonical);
  }
  return [...byKey.keys()].sort().map((key) => byKey.get(key)!);
}

/** The roles a role's rules draw from, and the edges left out (see `admission.ts`). */
interface Reach {
  contributors: RoleContributor[];
  refused: RefusedContributor[];
}

/** A role that counts: present and not marked for deletion (a role being deleted grants nothing). */
function liveRole(graph: RoleGraph, name: string): Role | undefined {
  const role = graph.role(name);
  return role === undefined || role.metadata.deletionTimestamp ? undefined : role;
}

/**
 * The roles whose rules `name` includes, besides itself, each with the edge
 * that first reached it (breadth-first: dependencies in annotation order,
 * then aggregated roles by name). Missing roles and roles marked for deletion
 * are skipped. An edge counts only when the role that declares it is admitted
 * (a dependency: the including role; an aggregation label: the aggregated
 * role); the others are returned as `refused`.
 */
function reachOf(graph: RoleGraph, name: string): Reach {
  const reached = new Map<string, RoleContributor>();
  const refused = new Map<string, RefusedContributor>();
  const queue = [name];
  const seen = new Set([name]);
  for (let i = 0; i < queue.length; i++) {
    const current = liveRole(graph, queue[i]);
    if (current === undefined) continue;
    const visit = (next: string, via: RoleContributor['via'], declaredBy: Role) => {
      if (seen.has(next)) return;
      const role = liveRole(graph, next);
      if (role === undefined) return;
      const edge = { name: next, via, through: queue[i] };
      if (!isAdmitted(declaredBy)) {
        const key = `${via}\0${next}\0${queue[i]}`;
        refused.set(key, { ...edge, message: notAdmittedMessage(declaredBy.metadata.name!) });
        return;
      }
      seen.add(next);
      reached.set(next, edge);
      queue.push(next);
    };
    for (const dependency of dependenciesOf(current)) visit(dependency, 'dependency', current);
    for (const aggregated of [...graph.aggregatedInto(queue[i])].sort()) {
      const role = liveRole(graph, aggregated);
      if (role !== undefined) visit(aggregated, 'aggregation', role);
    }
  }
  // An edge refused from one role may still have been reached through another.
  const stillRefused = [...refused.values()].filter((r) => !reached.has(r.name));
  return { contributors: [...reached.values()].sort(byName), refused: stillRefused.sort(byName) };
}

const byName = (a: { name: string; through?: string }, b: { name: string; through?: string }) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : (a.through ?? '') < (b.through ?? '') ? -1 : 1;

const notAdmittedMessage = (declaredBy: string) =>
  `role "${declaredBy}" was not written through the current role-write check (stored before it, or behind the ` +
  'apiserver): its dependencies and aggregation labels grant nothing until someone allowed to grant them writes it again';

/** The roles whose rules `name` includes, besides itself (see `reachOf`). */
export function contributorsOf(graph: RoleGraph, name: string): RoleContributor[] {
  return reachOf(graph, name).contributors;
}

/**
 * A role's effective rules, UI permissions and contributors; `{[], [], []}`
 * for a missing role. The edges left out because their role is not admitted
 * come in `refused` (absent when there are none).
 */
export function computeEffective(graph: RoleGraph, name: string): EffectiveRole {
  const root = liveRole(graph, name);
  if (root === undefined) return { rules: [], uiPermissions: [], contributors: [] };
  const { contributors, refused } = reachOf(graph, name);
  const roles = [root, ...contributors.map((c) => graph.role(c.name)!)];
  const effective: EffectiveRole = {
    rules: canonicalRules(roles.flatMap((role) => role.rules ?? [])),
    uiPermissions: sortedUnique(roles.flatMap(uiPermissionsOf)),
    contributors,
  };
  if (refused.length > 0) effective.refused = refused;
  return effective;
}

/**
 * Every role whose effective rules include `changedName`'s (itself included):
 * the reverse closure over dependency and aggregation edges. The aggregation
 * controller requeues these, plus the roles whose old status listed it.
 */
export function rolesAffectedBy(graph: ReversibleRoleGraph, changedName: string): Set<string> {
  const affected = new Set([changedName]);
  const queue = [changedName];
  for (let i = 0; i < queue.length; i++) {
    const changed = graph.role(queue[i]);
    const includers = [
      ...graph.dependentsOf(queue[i]),
      ...(changed === undefined ? [] : aggregationTargetsOf(changed)),
    ];
    for (const includer of includers) {
      if (affected.has(includer) || graph.role(includer) === undefined) continue;
      affected.add(includer);
      queue.push(includer);
    }
  }
  return affected;
}

/** A role graph over roles held in memory, with its edges indexed both ways; roles can be set and removed. */
export class SimpleRoleGraph implements ReversibleRoleGraph {
  private readonly roles = new Map<string, Role>();
  private readonly aggregated = new Map<string, Set<string>>();
  private readonly dependents = new Map<string, Set<string>>();

  constructor(roles: Iterable<Role> = []) {
    for (const role of roles) this.set(role);
  }

  role(name: string): Role | undefined {
    return this.roles.get(name);
  }

  aggregatedInto(target: string): Iterable<string> {
    return this.aggregated.get(target) ?? [];
  }

  dependentsOf(name: string): Iterable<string> {
    return this.dependents.get(name) ?? [];
  }

  /** Every role name. */
  names(): Iterable<string> {
    return this.roles.keys();
  }

  /** Adds or replaces a role (by `metadata.name`). */
  set(role: Role): void {
    const name = role.metadata.name!;
    this.remove(name);
    this.roles.set(name, role);
    for (const target of aggregationTargetsOf(role)) addTo(this.aggregated, target, name);
    for (const dependency of dependenciesOf(role)) addTo(this.dependents, dependency, name);
  }

  /** Removes a role; no-op when absent. */
  remove(name: string): void {
    const old = this.roles.get(name);
    if (old === undefined) return;
    this.roles.delete(name);
    for (const target of aggregationTargetsOf(old)) removeFrom(this.aggregated, target, name);
    for (const dependency of dependenciesOf(old)) removeFrom(this.dependents, dependency, name);
  }
}

function addTo(index: Map<string, Set<string>>, key: string, value: string): void {
  let values = index.get(key);
  if (values === undefined) index.set(key, (values = new Set()));
  values.add(value);
}

function removeFrom(index: Map<string, Set<string>>, key: string, value: string): void {
  const values = index.get(key);
  values?.delete(value);
  if (values?.size === 0) index.delete(key);
}
