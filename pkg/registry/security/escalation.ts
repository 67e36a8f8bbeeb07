import { forbidden, qualifiedResource, type ErrorSubject } from '../../api/errors';
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
  checkRules(user: UserInfo | undefined, rules: PolicyRule[], write: GuardedWrite): void;
  /** Throws 403 unless `user` holds every rule the role `role` grants now. */
  checkRole(user: UserInfo | undefined, role: string, write: GuardedWrite): void;
}

/**
 * The write a check is for, as its 403 names it (roles and bindings are in the core group),
 * e.g. `{verb: 'create', resource: 'rolebindings', name: 'ada-editor'}`. A PATCH is an `update`, as Kubernetes'
 * admission sees it.
 */
export interface GuardedWrite {
  verb: 'create' | 'update';
  resource: 'roles' | 'rolebindings';
  subresource?: 'status';
  /** Absent for a create with `generateName`. */
  name?: string;
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
  const check = (
    user: UserInfo | undefined,
    rules: PolicyRule[],
    write: GuardedWrite,
    grantor: string,
    escalateAllowed: boolean,
  ) => {
    if (!user || authorizer.isSuperAdmin(user)) return;
    if (escalateAllowed && mayEscalate(user)) return;
    const missing = authorizer.uncoveredRules(user, rules);
    if (missing.length === 0) return;
    throw escalationForbidden(
      user,
      write,
      `${grantor} grants what they do not hold themselves: ${JSON.stringify(missing.slice(0, 3))}`,
    );
  };
  return {
    checkRules: (user, rules, write) => check(user, rules, write, write.subresource ? 'its status' : 'it', true),
    checkRole: (user, role, write) =>
      check(user, [...(source.role(role)?.ruleSet.rules ?? [])], write, `role "${role}"`, false),
  };
}

/**
 * The 403, worded as every 403 names the request (API.md §5: user, verb, resource, group) and with
 * Kubernetes' prefix for an object (`NewForbidden`), e.g. `rolebindings "ada-editor" is forbidden: User "vera"
 * cannot create resource "rolebindings" in API group "": role "post-editor" grants what they do not hold
 * themselves: [...]`; `details` name the object.
 */
function escalationForbidden(user: UserInfo, write: GuardedWrite, reason: string) {
  const subject: ErrorSubject = { group: '', resource: write.resource, name: write.name };
  const object = write.name ? `${qualifiedResource(subject)} "${write.name}"` : qualifiedResource(subject);
  const resource = write.subresource ? `${write.resource}/${write.subresource}` : write.resource;
  return forbidden(
    `${object} is forbidden: User "${user.name}" cannot ${write.verb} resource "${resource}" in API group "": ${reason}`,
    subject,
  );
}
