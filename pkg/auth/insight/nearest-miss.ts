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
  type RuleSet,
  type TraceEntry,
} from '../rbac';
import type { UserInfo } from '../user';

/**
 * A refused request's nearest miss, as the access review's denied trace
 * words it (every role considered, then the closest rules and what failed),
 * built for a 403: rules are ranked by how many of their parts fail with the
 * matching predicates, and only the closest few are put into words. The
 * ranking stops once the closest rules cannot be beaten.
 */

/** How many of the closest failing rules are named (as the access review does). */
const CLOSEST_RULES = 3;

export function nearestMiss(source: RbacSource, user: UserInfo, attrs: RequestAttributes): TraceEntry[] {
  const held = [...heldRoles(source, user)];
  const counted = held.filter((h) => !h.limited && h.enforced !== undefined);
  // No rule can miss by less than this: 1 unless some rule matches the request as far as its parts go (a
  // conditional one). Once the closest rules all miss by this little, no later rule can take their place.
  const floor = counted.some((h) => matchesSomeRule(h.enforced!.ruleSet, attrs)) ? 0 : 1;
  const request = describeRequest(attrs);
  let closest: { role: string; rule: PolicyRule; misses: number; order: number }[] = [];
  let order = 0;
  const settled = () => closest.length === CLOSEST_RULES && closest[CLOSEST_RULES - 1].misses <= floor;
  for (const role of counted) {
    if (settled()) break;
    for (const rule of role.enforced!.ruleSet.rules) {
      if (!sameKind(rule, attrs)) continue;
      const misses = missCount(rule, attrs);
      const candidate = { role: role.name, rule, misses, order: order++ };
      if (closest.length < CLOSEST_RULES || misses < closest[closest.length - 1].misses) {
        closest = [...closest, candidate]
          .sort((a, b) => a.misses - b.misses || a.order - b.order)
          .slice(0, CLOSEST_RULES);
        if (settled()) break;
      }
    }
  }
  const trace: TraceEntry[] = held.map((h) => ({ kind: 'Role', name: h.name, message: roleMessage(h, request) }));
  for (const c of closest) {
    trace.push({
      kind: 'Rule',
      name: describeRule(c.rule),
      message: `in Role "${c.role}": ${ruleMismatches(c.rule, attrs).join('; ')}`,
    });
  }
  return trace;
}

/** Whether a rule of the set matches every part of the request (an allowing or a conditional rule). */
const matchesSomeRule = (ruleSet: RuleSet, attrs: RequestAttributes) =>
  ruleSet.allows(attrs) !== undefined || ruleSet.conditionalMatches(attrs).length > 0;

function roleMessage(held: HeldRole, request: string): string {
  const how =
    held.binding === undefined ? 'held by every request of the user' : `bound by RoleBinding "${held.binding}"`;
  if (held.limited) return `${how}, but left out by the token's role limit`;
  if (held.enforced === undefined) return `${how}, but no such role exists`;
  return `${how}; none of its ${held.enforced.ruleSet.rules.length} rules allows ${request}`;
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
