import type { RequestAttributes } from '../attributes';
import {
  apiGroupMatches,
  describeRequest,
  describeRule,
  heldRoles,
  hasResourceNames,
  nonResourceURLMatches,
  resourceMatches,
  resourceNameMatches,
  ruleMismatches,
  verbMatches,
  type HeldRole,
  type PolicyRule,
  type RbacSource,
  type TraceEntry,
} from '../rbac';
import type { UserInfo } from '../user';

/**
 * A refused request's nearest miss, as the access review's denied trace
 * words it (every role considered, then the closest rules and what failed),
 * built for a 403: rules are ranked by how many of their parts fail with the
 * matching predicates, and only the closest few are put into words.
 */

/** How many of the closest failing rules are named (as the access review does). */
const CLOSEST_RULES = 3;

export function nearestMiss(source: RbacSource, user: UserInfo, attrs: RequestAttributes): TraceEntry[] {
  const trace: TraceEntry[] = [];
  let closest: { role: string; rule: PolicyRule; misses: number; order: number }[] = [];
  let order = 0;
  for (const held of heldRoles(source, user)) {
    trace.push({ kind: 'Role', name: held.name, message: roleMessage(held, attrs) });
    if (held.limited || held.enforced === undefined) continue;
    for (const rule of held.enforced.ruleSet.rules) {
      if (!sameKind(rule, attrs)) continue;
      const misses = missCount(rule, attrs);
      const candidate = { role: held.name, rule, misses, order: order++ };
      if (closest.length < CLOSEST_RULES || misses < closest[closest.length - 1].misses) {
        closest = [...closest, candidate]
          .sort((a, b) => a.misses - b.misses || a.order - b.order)
          .slice(0, CLOSEST_RULES);
      }
    }
  }
  for (const c of closest) {
    trace.push({
      kind: 'Rule',
      name: describeRule(c.rule),
      message: `in Role "${c.role}": ${ruleMismatches(c.rule, attrs).join('; ')}`,
    });
  }
  return trace;
}

function roleMessage(held: HeldRole, attrs: RequestAttributes): string {
  const how =
    held.binding === undefined ? 'held by every request of the user' : `bound by RoleBinding "${held.binding}"`;
  if (held.limited) return `${how}, but left out by the token's role limit`;
  if (held.enforced === undefined) return `${how}, but no such role exists`;
  return `${how}; none of its ${held.enforced.ruleSet.rules.length} rules allows ${describeRequest(attrs)}`;
}

/** How many reasons `ruleMismatches` would give, without wording them. */
function missCount(rule: PolicyRule, attrs: RequestAttributes): number {
  let misses = verbMatches(rule, attrs.verb) ? 0 : 1;
  if (!attrs.isResourceRequest) return misses + (nonResourceURLMatches(rule, attrs.path) ? 0 : 1);
  if (!apiGroupMatches(rule, attrs.apiGroup)) misses++;
  if (!resourceMatches(rule, attrs.resource, attrs.subresource)) misses++;
  if (hasResourceNames(rule) && !resourceNameMatches(rule, attrs.verb, attrs.name)) misses++;
  return misses;
}

/** Resource rules explain resource requests, URL rules the others. */
function sameKind(rule: PolicyRule, attrs: RequestAttributes): boolean {
  const list = attrs.isResourceRequest ? rule.resources : rule.nonResourceURLs;
  return list !== undefined && list.length > 0;
}
