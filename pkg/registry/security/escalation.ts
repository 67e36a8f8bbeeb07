import { forbidden } from '../../api/errors';
import type { PolicyRule, RbacAuthorizer, RbacSource } from '../../auth/rbac';
import type { UserInfo } from '../../auth/user';

/**
 * Escalation prevention (API.md §9, as Kubernetes): a user may grant only what
 * they hold. Writing a role (its rules, or its status, whose rules the
 * apiserver enforces), or binding one, needs every rule of it. Exempt: the
 * super administrator, the platform's own writes (no user), and for role
 * writes a user allowed the verb `escalate` on roles (Kubernetes' verb: what
 * the aggregation controller holds).
 */
export interface EscalationGuard {
  /** Throws 403 unless `user` holds every one of `rules` (or may `escalate` roles). */
  checkRules(user: UserInfo | undefined, rules: PolicyRule[], what: string): void;
  /** Throws 403 unless `user` holds every rule the role `role` grants now. */
  checkRole(user: UserInfo | undefined, role: string, what: string): void;
}

export function escalationGuard(authorizer: RbacAuthorizer, source: RbacSource): EscalationGuard {
  const mayEscalate = (user: UserInfo) =>
    authorizer.decide(user, {
      isResourceRequest: true,
      path: '',
      verb: 'escalate',
      apiGroup: '',
      resource: 'roles',
      subresource: '',
      name: '',
    }).decision === 'Allow';
  const check = (user: UserInfo | undefined, rules: PolicyRule[], what: string, escalateAllowed: boolean) => {
    if (!user || authorizer.isSuperAdmin(user)) return;
    if (escalateAllowed && mayEscalate(user)) return;
    const missing = authorizer.uncoveredRules(user, rules);
    if (missing.length === 0) return;
    throw forbidden(
      `user "${user.name}" cannot ${what}: it grants what they do not hold themselves: ${JSON.stringify(missing.slice(0, 3))}`,
    );
  };
  return {
    checkRules: (user, rules, what) => check(user, rules, what, true),
    checkRole: (user, role, what) => check(user, [...(source.role(role)?.ruleSet.rules ?? [])], what, false),
  };
}
