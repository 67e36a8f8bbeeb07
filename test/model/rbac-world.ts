import {
  ANONYMOUS_ROLE,
  AUTHENTICATED_ROLE,
  enforcedRole,
  enforcedUiPermissions,
  heldRoles,
  RbacAuthorizer,
  SimpleRoleGraph,
  SUPER_ROLE,
  withAdmissionStamp,
  type EnforcedRole,
  type PolicyRule,
  type RbacSource,
  type Role,
  type RoleBinding,
} from '../../pkg/auth/rbac';
import { LOGGED_IN_GROUPS, type UserInfo } from '../../pkg/auth/user';
import type { ApiObject } from '../../pkg/api/object';
import type { StoreHooks } from '../../pkg/registry/resource-store';
import { escalationGuard } from '../../pkg/registry/security/escalation';
import { roleBindingHooks } from '../../pkg/registry/security/role-binding-kind';
import { roleHooks } from '../../pkg/registry/security/role-kind';
import { aggregatedStatus } from '../../controllers/rbac-aggregation';

/**
 * A world of roles and bindings for the model-based escalation test: every
 * write goes through what the apiserver runs for it (the authoriser's decision
 * on the request, then the Role and RoleBinding hooks with the real escalation
 * guard), and after every write the aggregation controller's status
 * computation converges every role, as a running controller-manager would.
 */

/** The super administrator of the world. */
export const ADMIN = 'admin';

/** One write as a client sends it. */
export type Write =
  | { op: 'putRole'; name: string; rules: PolicyRule[]; dependencies: string[]; aggregateTo: string[]; ui: string[] }
  | { op: 'deleteRole'; name: string }
  | { op: 'putBinding'; name: string; role: string; subjects: string[] }
  | { op: 'deleteBinding'; name: string };

/** Who writes: a user, perhaps through a token limited to some of their roles. */
export interface Actor {
  name: string;
  roleLimit?: string[];
}

const SUPER_RULES: PolicyRule[] = [
  { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
  { nonResourceURLs: ['*'], verbs: ['*'] },
];

export class RbacWorld implements RbacSource {
  private readonly roles = new Map<string, Role>();
  private readonly bindings = new Map<string, RoleBinding>();
  private readonly compiled = new Map<string, EnforcedRole>();
  private readonly graph = new SimpleRoleGraph();
  readonly authorizer = new RbacAuthorizer(this);
  private readonly roleHooks: StoreHooks;
  private readonly bindingHooks: StoreHooks;

  constructor() {
    const guard = escalationGuard(this.authorizer, this, this.graph);
    this.roleHooks = roleHooks(guard, (user) => user.name === 'system:controller-manager');
    this.bindingHooks = roleBindingHooks({ exists: async (name) => this.roles.has(name) }, guard);
    for (const [name, rules] of [
      [SUPER_ROLE, SUPER_RULES],
      [ANONYMOUS_ROLE, []],
      [AUTHENTICATED_ROLE, []],
    ] as const) {
      this.storeRole(
        withAdmissionStamp({ apiVersion: 'v1alpha1', kind: 'Role', metadata: { name }, rules: [...rules] }),
      );
    }
    this.bindings.set('admin-super-role', binding('admin-super-role', SUPER_ROLE, [ADMIN]));
    this.converge();
  }

  bindingsOf(userName: string): readonly { binding: string; role: string }[] {
    const refs: { binding: string; role: string }[] = [];
    for (const [name, b] of this.bindings) {
      if (b.subjects.some((s) => s.name === userName)) refs.push({ binding: name, role: b.roleRef.name });
    }
    return refs;
  }

  role(name: string): EnforcedRole | undefined {
    return this.compiled.get(name);
  }

  /** The identity a request of `actor` carries. */
  userInfo(actor: Actor): UserInfo {
    const user: UserInfo = { name: actor.name, groups: [...LOGGED_IN_GROUPS] };
    if (actor.roleLimit) user.roleLimit = actor.roleLimit;
    return user;
  }

  /** Every rule and UI permission `user` holds now (within a token's limit). */
  held(user: UserInfo): { rules: PolicyRule[]; ui: string[] } {
    const rules: PolicyRule[] = [];
    const ui: string[] = [];
    for (const role of heldRoles(this, user)) {
      if (role.limited || role.enforced === undefined) continue;
      rules.push(...role.enforced.ruleSet.rules);
      ui.push(...enforcedUiPermissions(role.enforced));
    }
    return { rules, ui };
  }

  /** Sends `write` as `actor`: the answer's status code (200 when it was stored). */
  async send(actor: Actor, write: Write): Promise<number> {
    const user = this.userInfo(actor);
    const { resource, verb } = this.requestOf(write);
    if (verb === 'delete' && !this.exists(write)) return 404;
    if (!this.allowed(user, verb, resource, write.name)) return 403;
    try {
      if (write.op === 'putRole' || write.op === 'deleteRole') await this.applyRole(user, write);
      else await this.applyBinding(user, write);
    } catch (err) {
      const code = (err as { code?: number }).code;
      if (code === 403 || code === 422 || code === 400) return code;
      throw err;
    }
    this.converge();
    return 200;
  }

  private exists(write: Write): boolean {
    return write.op.endsWith('Role') ? this.roles.has(write.name) : this.bindings.has(write.name);
  }

  /** The resource and verb the write's request carries (a PUT of something new is a create). */
  private requestOf(write: Write): { resource: string; verb: 'create' | 'update' | 'delete' } {
    const resource = write.op.endsWith('Role') ? 'roles' : 'rolebindings';
    if (write.op.startsWith('delete')) return { resource, verb: 'delete' };
    return { resource, verb: this.exists(write) ? 'update' : 'create' };
  }

  /** The authoriser's decision on the request itself, as the apiserver's filter asks it. */
  private allowed(user: UserInfo, verb: string, resource: string, name: string): boolean {
    const attrs = { isResourceRequest: true, path: `/api/v1alpha1/${resource}`, verb, apiGroup: '', resource };
    const decision = this.authorizer.decide(user, { ...attrs, subresource: '', name: verb === 'create' ? '' : name });
    return decision.decision === 'Allow';
  }

  private async applyRole(user: UserInfo, write: Extract<Write, { op: 'putRole' | 'deleteRole' }>): Promise<void> {
    const ctx = { user, dryRun: false };
    const current = this.roles.get(write.name);
    if (write.op === 'deleteRole') {
      await this.roleHooks.beforeDelete?.(current!, ctx);
      this.removeRole(write.name);
      return;
    }
    const next = roleOf(write);
    const admitted = (
      current
        ? await this.roleHooks.beforeUpdate!({ ...next, status: current.status }, current, ctx)
        : await this.roleHooks.beforeCreate!(next, ctx)
    ) as Role;
    admitted.metadata.generation = (current?.metadata.generation ?? 0) + 1;
    this.storeRole(admitted);
  }

  private async applyBinding(
    user: UserInfo,
    write: Extract<Write, { op: 'putBinding' | 'deleteBinding' }>,
  ): Promise<void> {
    const ctx = { user, dryRun: false };
    const current = this.bindings.get(write.name);
    if (write.op === 'deleteBinding') {
      await this.bindingHooks.beforeDelete?.(current!, ctx);
      this.bindings.delete(write.name);
      return;
    }
    const next = binding(write.name, write.role, write.subjects);
    const admitted = current
      ? await this.bindingHooks.beforeUpdate!(next, current, ctx)
      : await this.bindingHooks.beforeCreate!(next, ctx);
    this.bindings.set(write.name, admitted as RoleBinding);
  }

  /** What a running aggregation controller does: every role's status computed for the role as it is. */
  private converge(): void {
    for (const role of [...this.roles.values()]) {
      this.storeRole({ ...role, status: aggregatedStatus(this.graph, role) });
    }
  }

  private storeRole(role: Role): void {
    const name = role.metadata.name!;
    this.roles.set(name, role);
    this.graph.set(role);
    this.compiled.set(name, enforcedRole(role));
  }

  private removeRole(name: string): void {
    this.roles.delete(name);
    this.graph.remove(name);
    this.compiled.delete(name);
  }
}

function roleOf(write: Extract<Write, { op: 'putRole' }>): Role {
  const annotations: Record<string, string> = {};
  if (write.dependencies.length)
    annotations['rbac.authorization.svc.run/dependencies'] = JSON.stringify(write.dependencies);
  if (write.ui.length) annotations['rbac.authorization.svc.run/ui-permissions'] = JSON.stringify(write.ui);
  const labels = Object.fromEntries(
    write.aggregateTo.map((t) => [`rbac.authorization.svc.run/aggregate-to-${t}`, 'true']),
  );
  return {
    apiVersion: 'v1alpha1',
    kind: 'Role',
    metadata: { name: write.name, labels, annotations },
    rules: write.rules,
  };
}

function binding(name: string, role: string, subjects: string[]): RoleBinding & ApiObject {
  return {
    apiVersion: 'v1alpha1',
    kind: 'RoleBinding',
    metadata: { name },
    roleRef: { apiGroup: '', kind: 'Role', name: role },
    subjects: subjects.map((s) => ({ kind: 'User', apiGroup: '', name: s })),
  };
}
