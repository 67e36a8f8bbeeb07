import { forbidden } from '../../api/errors';
import type { PolicyRule, RbacAuthorizer, RbacSource } from '../../auth/rbac';
import type { UserInfo } from '../../auth/user';

/**
 * Escalation prevention (API.md §9, as Kubernetes): a user may grant only what
 * they hold. Writing a role, or binding one, needs every rule of it; the super
 * administrator and the platform's own writes (no user) are exempt.
 */
export interface EscalationGuard {
  /** Throws 403 unless `user` holds every one of `rules`. */
  checkRules(user: UserInfo | undefined, rules: PolicyRule[], what: string): void;
  /** Throws 403 unless `user` holds every rule the role `role` grants now. */
  checkRole(user: UserInfo | undefined, role: string, what: string): void;
}

export function escalationGuard(authorizer: RbacAuthorizer, source: RbacSource): EscalationGuard {
  const check = (user: UserInfo | undefined, rules: PolicyRule[], what: string) => {
    if (!user || authorizer.isSuperAdmin(user)) return;
    const missing = authorizer.uncoveredRules(user, rules);
    if (missing.length === 0) return;
    throw forbidden(`user "${user.name}" cannot ${what}: it grants what they do not hold themselves: ${JSON.stringify(missing.slice(0, 3))}`);
  };
  return {
    checkRules: check,
    checkRole: (user, role, what) => check(user, [...(source.role(role)?.ruleSet.rules ?? [])], what),
  };
}
