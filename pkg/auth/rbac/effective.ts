import {
  aggregationTargetsOf,
  dependenciesOf,
  uiPermissionsOf,
  type PolicyRule,
  type Role,
  type RoleContributor,
  type RoleStatus,
} from './types';

/**
 * A role's effective rules (API.md §9): its own, those of its dependencies,
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
  return canonical;
}

function ruleKey(rule: PolicyRule): string {
  return JSON.stringify([
    rule.verbs,
    rule.apiGroups ?? null,
    rule.resources ?? null,
    rule.resourceNames ?? null,
    rule.nonResourceURLs ?? null,
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

/**
 * The roles whose rules `name` includes, besides itself, each with the edge
 * that first reached it (breadth-first: dependencies in annotation order,
 * then aggregated roles by name). Missing roles are skipped.
 */
export function contributorsOf(graph: RoleGraph, name: string): RoleContributor[] {
  const reached = new Map<string, RoleContributor>();
  const queue = [name];
  const seen = new Set([name]);
  for (let i = 0; i < queue.length; i++) {
    const current = graph.role(queue[i]);
    if (current === undefined) continue;
    const visit = (next: string, via: RoleContributor['via']) => {
      if (seen.has(next) || graph.role(next) === undefined) return;
      seen.add(next);
      reached.set(next, { name: next, via, through: queue[i] });
      queue.push(next);
    };
    for (const dependency of dependenciesOf(current)) visit(dependency, 'dependency');
    for (const aggregated of [...graph.aggregatedInto(queue[i])].sort()) visit(aggregated, 'aggregation');
  }
  return [...reached.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A role's effective rules, UI permissions and contributors; `{[], [], []}` for a missing role. */
export function computeEffective(graph: RoleGraph, name: string): EffectiveRole {
  const root = graph.role(name);
  if (root === undefined) return { rules: [], uiPermissions: [], contributors: [] };
  const contributors = contributorsOf(graph, name);
  const roles = [root, ...contributors.map((c) => graph.role(c.name)!)];
  return {
    rules: canonicalRules(roles.flatMap((role) => role.rules ?? [])),
    uiPermissions: sortedUnique(roles.flatMap(uiPermissionsOf)),
    contributors,
  };
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
