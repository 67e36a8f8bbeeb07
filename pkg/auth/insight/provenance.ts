import { canonicalRule, type EnforcedRole, type PolicyRule, type RbacSource, type RoleContributor } from '../rbac';
import { isPlainObject } from '../../api/plain-object';

/**
 * Where a rule a user holds comes from: the binding, the bound role, and the
 * dependency/aggregation path from it to the role whose own rule it is.
 */

/** One way a user holds a rule. `binding` is absent for the roles every request holds (`authenticated`, `anonymous`). */
export interface Via {
  binding?: string;
  /** The role held (bound, or held by every request). */
  role: string;
  /** The roles from the held one to the one whose own rule it is, both included, e.g. `["post-author", "post-contributor"]`. */
  path: string[];
  rule?: PolicyRule;
}

/** Rule keys by rule object: rules are never changed once read (a role's change brings new objects). */
const ruleKeys = new WeakMap<PolicyRule, string>();

/** A key equal for equal rules, whatever the order of their lists. */
export function ruleKey(rule: PolicyRule): string {
  let key = ruleKeys.get(rule);
  if (key === undefined) ruleKeys.set(rule, (key = JSON.stringify(canonicalRule(rule))));
  return key;
}

/**
 * The roles whose own rules make up `held`'s effective rules, each with its path from `held`: the role itself,
 * then (when its status is what the authoriser enforces) each contributor of `status.contributors`.
 */
export function rolePaths(
  source: RbacSource,
  held: EnforcedRole,
): { role: string; path: string[]; rules: PolicyRule[] }[] {
  const own = { role: held.name, path: [held.name], rules: held.role.rules ?? [] };
  if (held.source !== 'status') return [own];
  const contributors = new Map(held.role.status!.contributors.map((c) => [c.name, c]));
  const out = [own];
  for (const contributor of contributors.values()) {
    const role = source.role(contributor.name)?.role;
    out.push({ role: contributor.name, path: pathTo(contributors, contributor, held.name), rules: role?.rules ?? [] });
  }
  return out;
}

/** `[held, …, contributor]`, following `through` back from the contributor (cycle-safe). */
function pathTo(contributors: Map<string, RoleContributor>, contributor: RoleContributor, held: string): string[] {
  const path: string[] = [];
  const seen = new Set<string>();
  for (let c: RoleContributor | undefined = contributor; c !== undefined && !seen.has(c.name);) {
    seen.add(c.name);
    path.unshift(c.name);
    if (c.through === held) break;
    c = contributors.get(c.through);
  }
  path.unshift(held);
  return path;
}

/**
 * Rule key → the own rule with that key and its path from `held` (its own rules first, then contributors in
 * `status.contributors` order), per enforced role. An enforced role is replaced, never changed, when its role
 * changes, so the answer is kept while it lives; it names the path as of the role's current status.
 */
const originIndexes = new WeakMap<EnforcedRole, Map<string, { rule: PolicyRule; path: string[] }>>();

export function originIndex(source: RbacSource, held: EnforcedRole): Map<string, { rule: PolicyRule; path: string[] }> {
  let index = originIndexes.get(held);
  if (index === undefined) {
    index = new Map();
    for (const { path, rules } of rolePaths(source, held)) {
      for (const rule of rules) {
        const key = ruleKey(rule);
        if (!index.has(key)) index.set(key, { rule, path });
      }
    }
    originIndexes.set(held, index);
  }
  return index;
}

/** The condition a rule carries (`where`), passed through as data; `undefined` for a rule without one. */
export function conditionOf(rule: PolicyRule): Record<string, unknown> | undefined {
  const where = (rule as PolicyRule & { where?: unknown }).where;
  return isPlainObject(where) ? where : undefined;
}
