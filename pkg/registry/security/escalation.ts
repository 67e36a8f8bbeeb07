import { forbidden, qualifiedResource, type ErrorSubject } from '../../api/errors';
import {
  canonicalRules,
  computeEffective,
  enforcedUiPermissions,
  roleWriteEffect,
  type PolicyRule,
  type RbacAuthorizer,
  type RbacSource,
  type ReversibleRoleGraph,
  type Role,
} from '../../auth/rbac';
import type { UserInfo } from '../../auth/user';

/**
 * Escalation prevention (docs/security.md), checked on effect, not on form: a user
 * may grant only what they hold. A role write (its rules, dependencies, UI
 * permissions, aggregation labels) needs every rule and UI permission of every
 * role whose effective grants it changes, as they would be after the write,
 * and `bind` on each role it newly aggregates into; writing a role's status
 * (whose rules the apiserver enforces) needs its rules; binding a role needs
 * every rule it grants. Exempt: the super administrator, the platform's own
 * writes (no user), and for role writes a user allowed the verb `escalate` on
 * roles (Kubernetes' verb: what the controller-manager holds).
 */
export interface EscalationGuard {
  /** Throws 403 unless `user` holds every one of `rules` (or may `escalate` roles). */
  checkRules(user: UserInfo | undefined, rules: PolicyRule[], write: GuardedWrite): void;
  /** Throws 403 unless `user` holds every one of the UI permissions `permissions` (or may `escalate` roles). */
  checkUiPermissions(user: UserInfo | undefined, permissions: string[], write: GuardedWrite): void;
  /** Throws 403 unless writing `after` grants nothing `user` does not hold (or they may `escalate` roles). */
  checkRoleWrite(user: UserInfo | undefined, after: Role, write: GuardedWrite): void;
  /** Throws 403 unless `user` holds every rule and UI permission the role `role` grants, now or once its status catches up. */
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

/**
 * The guard over the authoriser and its source; `graph` is every role as the
 * security cache holds it (what effective rules are computed over).
 */
export function escalationGuard(
  authorizer: RbacAuthorizer,
  source: RbacSource,
  graph: ReversibleRoleGraph,
): EscalationGuard {
  const allowedOnRoles = (user: UserInfo, verb: string, name = '') =>
    authorizer.decide(user, {
      isResourceRequest: true,
      path: '',
      verb,
      apiGroup: '',
      resource: 'roles',
      subresource: '',
      name,
    }).decision === 'Allow';
  const mayEscalate = (user: UserInfo) => allowedOnRoles(user, 'escalate');
  /** `rules` is asked for only when the user is not exempt (a role's grants cost an effective-rules computation). */
  const check = (
    user: UserInfo | undefined,
    rules: () => PolicyRule[],
    write: GuardedWrite,
    grantor: string,
    escalateAllowed: boolean,
  ) => {
    if (!user || authorizer.isSuperAdmin(user)) return;
    if (escalateAllowed && mayEscalate(user)) return;
    const missing = authorizer.uncoveredRules(user, rules());
    if (missing.length === 0) return;
    throw escalationForbidden(
      user,
      write,
      `${grantor} grants what they do not hold themselves: ${JSON.stringify(missing.slice(0, 3))}`,
    );
  };
  const checkRoleWrite = (user: UserInfo | undefined, after: Role, write: GuardedWrite) => {
    if (!user || authorizer.isSuperAdmin(user) || mayEscalate(user)) return;
    const effect = roleWriteEffect(graph, after);
    for (const target of effect.addedAggregationTargets) {
      if (allowedOnRoles(user, 'bind', target)) continue;
      throw escalationForbidden(
        user,
        write,
        `the label aggregate-to-${target} grants its rules to every holder of role "${target}", ` +
          `which needs bind on role "${target}"`,
      );
    }
    for (const changed of effect.changed) {
      const grants = changed.name === after.metadata.name ? 'it grants' : `role "${changed.name}" would then grant`;
      const missing = authorizer.uncoveredRules(user, changed.rules);
      if (missing.length > 0) {
        const held = JSON.stringify(missing.slice(0, 3));
        throw escalationForbidden(user, write, `${grants} what they do not hold themselves: ${held}`);
      }
      const missingUi = authorizer.uncoveredUiPermissions(user, changed.uiPermissions);
      if (missingUi.length > 0) {
        const held = JSON.stringify(missingUi.slice(0, 5));
        throw escalationForbidden(user, write, `${grants} UI permissions they do not hold themselves: ${held}`);
      }
    }
  };
  /** What a role grants: what is enforced now and what its status will say once the controller catches up. */
  const grantsOf = (role: string) => {
    const enforced = source.role(role);
    const effective = computeEffective(graph, role);
    return {
      rules: canonicalRules([...(enforced?.ruleSet.rules ?? []), ...effective.rules]),
      uiPermissions: [...new Set([...(enforced ? enforcedUiPermissions(enforced) : []), ...effective.uiPermissions])],
    };
  };
  /** A binding grants the role's rules and its UI permissions: the binder must hold both. */
  const checkRole = (user: UserInfo | undefined, role: string, write: GuardedWrite) => {
    if (!user || authorizer.isSuperAdmin(user)) return;
    const grants = grantsOf(role);
    check(user, () => grants.rules, write, `role "${role}"`, false);
    const missingUi = authorizer.uncoveredUiPermissions(user, grants.uiPermissions);
    if (missingUi.length === 0) return;
    const held = JSON.stringify(missingUi.slice(0, 5));
    throw escalationForbidden(user, write, `role "${role}" grants UI permissions they do not hold themselves: ${held}`);
  };
  return {
    checkRules: (user, rules, write) => check(user, () => rules, write, write.subresource ? 'its status' : 'it', true),
    checkUiPermissions: (user, permissions, write) => {
      if (!user || authorizer.isSuperAdmin(user) || mayEscalate(user)) return;
      const missing = authorizer.uncoveredUiPermissions(user, permissions);
      if (missing.length === 0) return;
      const held = JSON.stringify(missing.slice(0, 5));
      throw escalationForbidden(user, write, `its status grants UI permissions they do not hold themselves: ${held}`);
    },
    checkRoleWrite,
    checkRole,
  };
}

/**
 * The 403, worded as every 403 names the request (user, verb, resource, group) and with
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
