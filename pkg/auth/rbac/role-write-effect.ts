import { withAdmissionStamp } from './admission';
import { computeEffective, rolesAffectedBy, type ReversibleRoleGraph } from './effective';
import { aggregationTargetsOf, dependenciesOf, type PolicyRule, type Role } from './types';
import { jsonEqual } from '../../util/json-equal';

/**
 * What a role write changes about who may do what (docs/security.md, "checked on
 * effect, not on form"): every role whose effective rules or UI permissions
 * differ after the write, with what they would be, over the same
 * effective-rules computation the aggregation controller materialises.
 */

/** A role whose effective grants a write changes, as they would be after it. */
export interface ChangedRole {
  name: string;
  rules: PolicyRule[];
  uiPermissions: string[];
}

/** What a role write changes: the roles whose grants change, and the aggregation targets it adds. */
export interface RoleWriteEffect {
  changed: ChangedRole[];
  /** Targets of `aggregate-to-<target>` labels the write adds (each grants to every holder of the target). */
  addedAggregationTargets: string[];
}

/**
 * `graph` as it would be with `name` replaced by `role` (or removed when
 * `role` is undefined): a view, nothing copied.
 */
export class RoleGraphWithChange implements ReversibleRoleGraph {
  constructor(
    private readonly base: ReversibleRoleGraph,
    private readonly name: string,
    private readonly replacement: Role | undefined,
  ) {}

  role(name: string): Role | undefined {
    return name === this.name ? this.replacement : this.base.role(name);
  }

  aggregatedInto(target: string): Iterable<string> {
    const names = new Set([...this.base.aggregatedInto(target)].filter((n) => n !== this.name));
    if (this.replacement && aggregationTargetsOf(this.replacement).includes(target)) names.add(this.name);
    return names;
  }

  dependentsOf(dependency: string): Iterable<string> {
    const names = new Set([...this.base.dependentsOf(dependency)].filter((n) => n !== this.name));
    if (this.replacement && dependenciesOf(this.replacement).includes(dependency)) names.add(this.name);
    return names;
  }
}

/**
 * The effect of writing `after` (a create or an update) over `graph`, which
 * holds the roles as they are now. `after` counts as admitted: the write
 * stamps it when the check passes.
 */
export function roleWriteEffect(graph: ReversibleRoleGraph, after: Role): RoleWriteEffect {
  const name = after.metadata.name!;
  const before = graph.role(name);
  const next = new RoleGraphWithChange(graph, name, withAdmissionStamp(after));
  const affected = new Set([...rolesAffectedBy(graph, name), ...rolesAffectedBy(next, name)]);
  const changed: ChangedRole[] = [];
  for (const role of [...affected].sort()) {
    const was = computeEffective(graph, role);
    const will = computeEffective(next, role);
    if (jsonEqual(was.rules, will.rules) && jsonEqual(was.uiPermissions, will.uiPermissions)) continue;
    changed.push({ name: role, rules: will.rules, uiPermissions: will.uiPermissions });
  }
  const hadTargets = new Set(before ? aggregationTargetsOf(before) : []);
  return {
    changed,
    addedAggregationTargets: aggregationTargetsOf(after).filter((target) => !hadTargets.has(target)),
  };
}
