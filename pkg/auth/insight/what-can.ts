import { ANY, enforcedUiPermissions, heldRoles, type EnforcedRole, type PolicyRule, type RbacSource } from '../rbac';
import type { UserInfo } from '../user';
import { originIndex, ruleKey, type Via } from './provenance';

/**
 * What can a user do (a subject rules review): every rule of every role the user holds, as the authoriser
 * enforces it, each once with every way it is held. It reads the same enforced roles as the authoriser, so it
 * is never incomplete.
 */

/** A rule with where it comes from. */
export type RuleWithVia = PolicyRule & { via: Via[] };

/** A subject rules review's status. */
export interface SubjectRules {
  resourceRules: RuleWithVia[];
  nonResourceRules: RuleWithVia[];
  uiPermissions: string[];
  incomplete: false;
}

/** The rules and UI permissions `user` holds (bindings within a token's role limit, then `user.groups`). */
export function whatCan(source: RbacSource, user: UserInfo): SubjectRules {
  const resourceRules = new Map<string, RuleWithVia>();
  const nonResourceRules = new Map<string, RuleWithVia>();
  const ui = new Set<string>();
  for (const held of heldRoles(source, user)) {
    if (held.limited || held.enforced === undefined) continue;
    for (const permission of enforcedUiPermissions(held.enforced)) ui.add(permission);
    for (const part of partsOf(source, held.enforced)) {
      const via: Via =
        held.binding === undefined
          ? { role: held.name, path: part.path }
          : { binding: held.binding, role: held.name, path: part.path };
      add(part.url ? nonResourceRules : resourceRules, part, via);
    }
  }
  return {
    resourceRules: [...resourceRules.values()],
    nonResourceRules: [...nonResourceRules.values()],
    uiPermissions: ui.has(ANY) ? [ANY] : [...ui].sort(),
    incomplete: false,
  };
}

/** One enforced rule's resource or URL part, its key, and the path to the role whose own rule it is. */
interface RulePart {
  rule: PolicyRule;
  key: string;
  url: boolean;
  path: string[];
}

/** The parts of a held role's enforced rules, worked out once per enforced role (replaced, never changed). */
const partsCache = new WeakMap<EnforcedRole, RulePart[]>();

function partsOf(source: RbacSource, held: EnforcedRole): RulePart[] {
  let parts = partsCache.get(held);
  if (parts === undefined) {
    const origins = originIndex(source, held);
    parts = [];
    for (const rule of held.ruleSet.rules) {
      const path = origins.get(ruleKey(rule))?.path ?? [held.name];
      const { resourcePart, urlPart } = split(rule);
      if (resourcePart) parts.push({ rule: resourcePart, key: ruleKey(resourcePart), url: false, path });
      if (urlPart) parts.push({ rule: urlPart, key: ruleKey(urlPart), url: true, path });
    }
    partsCache.set(held, parts);
  }
  return parts;
}

function add(rules: Map<string, RuleWithVia>, part: RulePart, via: Via): void {
  const entry = rules.get(part.key);
  if (entry === undefined) rules.set(part.key, { ...part.rule, via: [via] });
  else if (!entry.via.some((v) => v.binding === via.binding && v.role === via.role)) entry.via.push(via);
}

/** A rule's resource part and its URL part (a rule may name both, as `super-role`'s does). */
function split(rule: PolicyRule): { resourcePart?: PolicyRule; urlPart?: PolicyRule } {
  const { nonResourceURLs, ...resourcePart } = rule;
  const out: { resourcePart?: PolicyRule; urlPart?: PolicyRule } = {};
  if (rule.resources !== undefined && rule.resources.length > 0) {
    out.resourcePart = { ...resourcePart, apiGroups: rule.apiGroups ?? [] };
    if (!rule.resourceNames?.length) delete out.resourcePart.resourceNames;
  }
  if (nonResourceURLs !== undefined && nonResourceURLs.length > 0) out.urlPart = { verbs: rule.verbs, nonResourceURLs };
  return out;
}
