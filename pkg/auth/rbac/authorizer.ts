import type { RequestAttributes } from '../attributes';
import type { Attributes, Authorizer, Decision } from '../authorizer';
import { isAnonymous, type UserInfo } from '../user';
import { boundConditionFor, sameCondition, type BoundCondition } from './conditions';
import { uncoveredRules } from './escalation';
import { explainDecision, type Explanation } from './explain';
import { enforcedUiPermissions, heldRoles, withinRoleLimit, type RbacSource } from './held-roles';
import { prepareRequest } from './rule-set';
import { describeRequest } from './rules';
import { ANY, SUPER_ROLE, type PolicyRule, type RuleCondition } from './types';

/**
 * `--authorization-mode=RBAC` (docs/security.md): a request is allowed when a rule
 * of any role the user holds allows it — the roles of the user's bindings
 * (only those in `user.roleLimit` when set) and the roles named in
 * `user.groups`. Otherwise the answer is NoOpinion, as in Kubernetes (the
 * server denies anything not allowed).
 */
export class RbacAuthorizer implements Authorizer {
  constructor(private readonly source: RbacSource) {}

  async authorize(attributes: Attributes): Promise<{ decision: Decision; reason: string }> {
    return this.decide(attributes.user, attributes.info);
  }

  /** `authorize` without the promise: map lookups only. */
  decide(user: UserInfo, attrs: RequestAttributes): { decision: Decision; reason: string } {
    const request = prepareRequest(attrs);
    const bindings = this.source.bindingsOf(user.name);
    for (let i = 0; i < bindings.length; i++) {
      const { binding, role } = bindings[i];
      if (user.roleLimit !== undefined && !withinRoleLimit(user, role)) continue;
      if (this.source.role(role)?.ruleSet.allowsPrepared(request) !== undefined) {
        return { decision: 'Allow', reason: `allowed by RoleBinding "${binding}" to Role "${role}"` };
      }
    }
    const groups = user.groups;
    for (let i = 0; i < groups.length; i++) {
      if (this.source.role(groups[i])?.ruleSet.allowsPrepared(request) !== undefined) {
        return { decision: 'Allow', reason: `allowed by Role "${groups[i]}"` };
      }
    }
    return { decision: 'NoOpinion', reason: `no role of user "${user.name}" allows ${describeRequest(attrs)}` };
  }

  /**
   * For a request no rule allows outright: the conditions, bound to the user, of the rules that would allow it if
   * the object matched (`[]` when none). The request is then allowed for objects matching any of them (see
   * `conditions.ts`); an object-less request (list, watch, deletecollection) sees only such objects.
   */
  conditionsFor(user: UserInfo, attrs: RequestAttributes): BoundCondition[] {
    const found: BoundCondition[] = [];
    const seen = new Set<RuleCondition>();
    const anonymous = isAnonymous(user);
    const add = (role: string) => {
      const matches = this.source.role(role)?.ruleSet.conditionalMatches(attrs);
      if (matches === undefined) return;
      for (const rule of matches) {
        if (seen.has(rule.where!)) continue;
        seen.add(rule.where!);
        const bound = boundConditionFor(rule.where!, user, anonymous);
        if (bound && !found.some((f) => sameCondition(f, bound))) found.push(bound);
      }
    };
    const bindings = this.source.bindingsOf(user.name);
    for (let i = 0; i < bindings.length; i++) if (withinRoleLimit(user, bindings[i].role)) add(bindings[i].role);
    for (let i = 0; i < user.groups.length; i++) add(user.groups[i]);
    return found;
  }

  /** The access review's answer (docs/security.md): the decision, its reason, and the trace that leads to it. */
  explain(user: UserInfo, attrs: RequestAttributes): Explanation {
    const allowed = this.decide(user, attrs);
    return explainDecision(this.source, user, attrs, allowed.decision === 'Allow', allowed.reason);
  }

  /** The names a collection request (a watch) may see: `'all'`, or those the user's resourceNames rules allow. */
  namesAllowed(user: UserInfo, attrs: Omit<RequestAttributes, 'name'>): 'all' | Set<string> {
    const names = new Set<string>();
    for (const held of heldRoles(this.source, user)) {
      if (held.limited || held.enforced === undefined) continue;
      const allowed = held.enforced.ruleSet.namesAllowed(attrs);
      if (allowed === 'all') return 'all';
      for (const name of allowed) names.add(name);
    }
    return names;
  }

  /**
   * The rules of `rules` the user does not hold themself (escalation check:
   * binding a role is 403 unless every rule of it is covered); `[]` when all are.
   */
  uncoveredRules(user: UserInfo, rules: readonly PolicyRule[]): PolicyRule[] {
    const owned: PolicyRule[] = [];
    for (const held of heldRoles(this.source, user)) {
      if (!held.limited && held.enforced !== undefined) owned.push(...held.enforced.ruleSet.rules);
    }
    return uncoveredRules(owned, rules);
  }

  /**
   * The UI permissions of `wanted` the user does not hold (through a role they
   * hold, within a token's limit); `[]` when all are. `*` covers every one.
   */
  uncoveredUiPermissions(user: UserInfo, wanted: readonly string[]): string[] {
    if (wanted.length === 0 || this.isSuperAdmin(user)) return [];
    const held = new Set<string>();
    for (const role of heldRoles(this.source, user)) {
      if (role.limited || role.enforced === undefined) continue;
      for (const permission of enforcedUiPermissions(role.enforced)) held.add(permission);
    }
    if (held.has(ANY)) return [];
    return wanted.filter((permission) => !held.has(permission));
  }

  /** Whether the user holds `super-role` through a binding (within the token's role limit). */
  isSuperAdmin(user: UserInfo): boolean {
    return this.source.bindingsOf(user.name).some(({ role }) => role === SUPER_ROLE && withinRoleLimit(user, role));
  }
}
