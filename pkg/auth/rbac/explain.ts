import type { RequestAttributes } from '../attributes';
import type { UserInfo } from '../user';
import { heldRoles, type EnforcedRole, type HeldRole, type RbacSource } from './held-roles';
import { describeRequest, describeRule, ruleAllows, ruleMismatches } from './rules';
import type { PolicyRule, RoleContributor } from './types';

/** One step of an access review's trace (docs/security.md). */
export interface TraceEntry {
  kind: 'RoleBinding' | 'Role' | 'Rule';
  name: string;
  message: string;
}

/** An access review's answer. */
export interface Explanation {
  allowed: boolean;
  reason: string;
  trace: TraceEntry[];
}

/** How many of the closest failing rules a denial explains. */
const CLOSEST_RULES = 3;

function howHeld(held: HeldRole): string {
  return held.binding === undefined ? 'held by every request of the user' : `bound by RoleBinding "${held.binding}"`;
}

/**
 * The trace of an allowed or denied request. Allowed: the binding, the bound
 * role, the dependency/aggregation path (from status.contributors) to the
 * role whose own rule allows, and that rule. Denied: every role considered
 * and, for the closest rules, why each failed.
 */
export function explainDecision(
  source: RbacSource,
  user: UserInfo,
  attrs: RequestAttributes,
  allowed: boolean,
  reason: string,
): Explanation {
  const held = heldRoles(source, user);
  return { allowed, reason, trace: allowed ? allowedTrace(source, held, attrs) : deniedTrace(held, attrs) };
}

function allowedTrace(source: RbacSource, held: HeldRole[], attrs: RequestAttributes): TraceEntry[] {
  for (const h of held) {
    if (h.limited || h.enforced === undefined) continue;
    const rule = h.enforced.ruleSet.allows(attrs);
    if (rule === undefined) continue;
    const trace: TraceEntry[] = [];
    if (h.binding !== undefined)
      trace.push({ kind: 'RoleBinding', name: h.binding, message: `binds Role "${h.name}"` });
    trace.push({ kind: 'Role', name: h.name, message: howHeld(h) });
    const origin = ruleOrigin(source, h.enforced, attrs);
    if (origin !== undefined) {
      trace.push(...origin.path);
      trace.push({ kind: 'Rule', name: describeRule(origin.rule), message: `allows ${describeRequest(attrs)}` });
    } else {
      trace.push({ kind: 'Rule', name: describeRule(rule), message: `allows ${describeRequest(attrs)}` });
    }
    return trace;
  }
  return [];
}

/**
 * Which role's own rule allows the request — the bound role or one of its
 * contributors — and the path of contributor edges from the bound role to it.
 * `undefined` when no role found now holds such a rule (the status is stale).
 */
function ruleOrigin(
  source: RbacSource,
  bound: EnforcedRole,
  attrs: RequestAttributes,
): { rule: PolicyRule; path: TraceEntry[] } | undefined {
  const own = (bound.role.rules ?? []).find((rule) => ruleAllows(rule, attrs));
  if (own !== undefined) return { rule: own, path: [] };
  if (bound.source !== 'status') return undefined;
  const contributors = new Map(bound.role.status!.contributors.map((c) => [c.name, c]));
  for (const contributor of contributors.values()) {
    const role = source.role(contributor.name)?.role;
    const rule = (role?.rules ?? []).find((r) => ruleAllows(r, attrs));
    if (rule !== undefined) return { rule, path: contributorPath(contributors, contributor, bound.name) };
  }
  return undefined;
}

/** The edges from the bound role down to `contributor`, following `through` back (cycle-safe). */
function contributorPath(
  contributors: Map<string, RoleContributor>,
  contributor: RoleContributor,
  bound: string,
): TraceEntry[] {
  const path: TraceEntry[] = [];
  const seen = new Set<string>();
  for (
    let c: RoleContributor | undefined = contributor;
    c !== undefined && !seen.has(c.name);
    c = contributors.get(c.through)
  ) {
    seen.add(c.name);
    path.unshift({
      kind: 'Role',
      name: c.name,
      message: c.via === 'dependency' ? `a dependency of Role "${c.through}"` : `aggregated into Role "${c.through}"`,
    });
    if (c.through === bound) break;
  }
  return path;
}

function deniedTrace(held: HeldRole[], attrs: RequestAttributes): TraceEntry[] {
  const trace: TraceEntry[] = [];
  const candidates: { role: string; rule: PolicyRule; mismatches: string[]; order: number }[] = [];
  for (const h of held) {
    if (h.limited) {
      trace.push({ kind: 'Role', name: h.name, message: `${howHeld(h)}, but left out by the token's role limit` });
      continue;
    }
    if (h.enforced === undefined) {
      trace.push({ kind: 'Role', name: h.name, message: `${howHeld(h)}, but no such role exists` });
      continue;
    }
    const rules = h.enforced.ruleSet.rules;
    trace.push({
      kind: 'Role',
      name: h.name,
      message: `${howHeld(h)}; none of its ${rules.length} rules allows ${describeRequest(attrs)}`,
    });
    for (const rule of rules) {
      if (!sameKind(rule, attrs)) continue;
      candidates.push({ role: h.name, rule, mismatches: ruleMismatches(rule, attrs), order: candidates.length });
    }
  }
  candidates.sort((a, b) => a.mismatches.length - b.mismatches.length || a.order - b.order);
  for (const c of candidates.slice(0, CLOSEST_RULES)) {
    trace.push({
      kind: 'Rule',
      name: describeRule(c.rule),
      message: `in Role "${c.role}": ${c.mismatches.join('; ')}`,
    });
  }
  return trace;
}

/** Resource rules explain resource requests, URL rules the others. */
function sameKind(rule: PolicyRule, attrs: RequestAttributes): boolean {
  const list = attrs.isResourceRequest ? rule.resources : rule.nonResourceURLs;
  return list !== undefined && list.length > 0;
}
