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
import { chainHooks } from '../../pkg/registry/chain-hooks';
import { refusingUsersBeingDeleted } from '../../pkg/registry/security/binding-subjects-guard';
import { escalationGuard } from '../../pkg/registry/security/escalation';
import { LastSuperAdminGuard } from '../../pkg/registry/security/last-super-admin';
import { assignRoles, type RoleAssignmentDeps } from '../../pkg/registry/security/role-assignment';
import { roleBindingHooks } from '../../pkg/registry/security/role-binding-kind';
import { roleHooks } from '../../pkg/registry/security/role-kind';
import type { SecurityCache } from '../../pkg/registry/security/security-cache';
import { logger } from '../../pkg/util/log';
import { aggregatedStatus } from '../../controllers/rbac-aggregation';

/**
 * A world of users, roles and bindings for the model-based escalation test:
 * every write goes through what the apiserver runs for it (the authoriser's
 * decision on the request, then the Role and RoleBinding hooks with the real
 * escalation guard, the last-super-administrator guard and the guard against
 * binding users being deleted; role assignment through the endpoint's own
 * code), and after every write the aggregation controller's status
 * computation converges every role, as a running controller-manager would.
 * Deleting a user marks them; the user-cleanup controller's work (taking them
 * off every binding, then removing them) is a step of its own, so that writes
 * can come between the mark and the cleanup.
 */

/** The super administrator of the world. */
export const ADMIN = 'admin';

/** One write as a client sends it. */
export type Write =
  | { op: 'putRole'; name: string; rules: PolicyRule[]; dependencies: string[]; aggregateTo: string[]; ui: string[] }
  | { op: 'deleteRole'; name: string }
  | { op: 'putBinding'; name: string; role: string; subjects: string[] }
  | { op: 'deleteBinding'; name: string }
  | { op: 'assign'; user: string; roles: string[] }
  | { op: 'createUser'; name: string }
  | { op: 'deleteUser'; name: string }
  | { op: 'cleanUpUsers' };

/** Who writes: a user, perhaps through a token limited to some of their roles. */
export interface Actor {
  name: string;
  roleLimit?: string[];
}

const SUPER_RULES: PolicyRule[] = [
  { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
  { nonResourceURLs: ['*'], verbs: ['*'] },
];

type Listener = (name: string, previous: ApiObject | undefined, current: ApiObject | undefined) => void;

export class RbacWorld implements RbacSource {
  private readonly roles = new Map<string, Role>();
  private readonly bindings = new Map<string, RoleBinding>();
  private readonly compiled = new Map<string, EnforcedRole>();
  private readonly graph = new SimpleRoleGraph();
  /** Users: those marked for deletion carry `deletionTimestamp`. */
  private readonly users = new Map<string, ApiObject>();
  /** For each user marked for deletion, the bindings that named them at the mark. */
  private readonly boundAtMark = new Map<string, Set<string>>();
  private readonly bindingListeners: Listener[] = [];
  private readonly userListeners: Listener[] = [];
  readonly authorizer = new RbacAuthorizer(this);
  private readonly roleHooks: StoreHooks;
  private readonly bindingHooks: StoreHooks;
  private readonly superAdmins: LastSuperAdminGuard;
  private generated = 0;

  constructor(users: readonly string[]) {
    const guard = escalationGuard(this.authorizer, this, this.graph);
    this.roleHooks = roleHooks(guard, (user) => user.name === 'system:controller-manager');
    this.superAdmins = new LastSuperAdminGuard(this.cacheView());
    this.bindingHooks = chainHooks(
      refusingUsersBeingDeleted(
        roleBindingHooks({ exists: async (name) => this.roles.has(name) }, guard),
        (user) => this.users.get(user)?.metadata.deletionTimestamp !== undefined,
      ),
      this.superAdmins.bindingHooks(),
    );
    for (const name of [ADMIN, ...users]) this.setUser(name, userObject(name));
    for (const [name, rules] of [
      [SUPER_ROLE, SUPER_RULES],
      [ANONYMOUS_ROLE, []],
      [AUTHENTICATED_ROLE, []],
    ] as const) {
      this.storeRole(
        withAdmissionStamp({ apiVersion: 'v1alpha1', kind: 'Role', metadata: { name }, rules: [...rules] }),
      );
    }
    this.setBinding('admin-super-role', binding('admin-super-role', SUPER_ROLE, [ADMIN]));
    this.converge();
  }

  /** The part of the security cache the last-super-administrator guard reads. */
  private cacheView(): SecurityCache {
    const view = {
      bindings: {
        subscribe: (listener: Listener) => this.bindingListeners.push(listener),
        values: () => this.bindings.values(),
      },
      users: {
        subscribe: (listener: Listener) => this.userListeners.push(listener),
        get: (name: string) => this.users.get(name),
      },
    };
    return view as unknown as SecurityCache;
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
    if (write.op === 'cleanUpUsers') {
      this.cleanUpUsers();
      return 200;
    }
    // A user who is gone has no credentials left (their tokens and password go with them).
    if (!this.users.has(actor.name)) return 401;
    const user = this.userInfo(actor);
    try {
      const code = await this.apply(user, write);
      if (code !== 200) return code;
    } catch (err) {
      const code = (err as { code?: number }).code;
      if (code === 400 || code === 403 || code === 409 || code === 422) return code;
      throw err;
    }
    this.converge();
    return 200;
  }

  /** Authorises the write's request and makes it: 200, or the code of a refusal that throws no error. */
  private async apply(user: UserInfo, write: Exclude<Write, { op: 'cleanUpUsers' }>): Promise<number> {
    switch (write.op) {
      case 'putRole':
      case 'deleteRole':
      case 'putBinding':
      case 'deleteBinding':
        return this.writeRoleOrBinding(user, write);
      case 'assign':
        return this.assign(user, write.user, write.roles);
      case 'createUser':
        return this.createUser(user, write.name);
      case 'deleteUser':
        return this.deleteUser(user, write.name);
    }
  }

  private async writeRoleOrBinding(
    user: UserInfo,
    write: Extract<Write, { op: 'putRole' | 'deleteRole' | 'putBinding' | 'deleteBinding' }>,
  ): Promise<number> {
    const resource = write.op.endsWith('Role') ? 'roles' : 'rolebindings';
    const exists = resource === 'roles' ? this.roles.has(write.name) : this.bindings.has(write.name);
    // A PUT of something new is a create.
    const verb = write.op.startsWith('delete') ? 'delete' : exists ? 'update' : 'create';
    if (verb === 'delete' && !exists) return 404;
    if (!this.allowed(user, verb, '', resource, '', write.name)) return 403;
    if (write.op === 'putRole' || write.op === 'deleteRole') await this.applyRole(user, write);
    else await this.applyBinding(user, write);
    return 200;
  }

  /** POST …/users/{name}/permissions: the endpoint's own code. */
  private async assign(user: UserInfo, name: string, roles: string[]): Promise<number> {
    if (!this.allowed(user, 'create', 'api.console.svc.run', 'users', 'permissions', name)) return 403;
    if (!this.users.has(name)) return 404;
    await assignRoles(this.assignmentDeps(), user, name, [...new Set(roles)]);
    return 200;
  }

  private createUser(user: UserInfo, name: string): number {
    if (!this.allowed(user, 'create', '', 'users', '', name)) return 403;
    if (this.users.has(name)) return 409;
    this.setUser(name, userObject(name));
    return 200;
  }

  /** DELETE of a user: the last-super-administrator check, then the mark (the cleanup is a step of its own). */
  private async deleteUser(user: UserInfo, name: string): Promise<number> {
    if (!this.allowed(user, 'delete', '', 'users', '', name)) return 403;
    const current = this.users.get(name);
    if (!current) return 404;
    await this.superAdmins.userHooks().beforeDelete!(current, { user, dryRun: false });
    if (current.metadata.deletionTimestamp) return 200;
    const named = [...this.bindings].filter(([, b]) => b.subjects.some((s) => s.name === name));
    this.boundAtMark.set(name, new Set(named.map(([binding]) => binding)));
    this.setUser(name, { ...current, metadata: { ...current.metadata, deletionTimestamp: 'now' } });
    return 200;
  }

  /** The authoriser's decision on the request itself, as the apiserver's filter asks it. */
  private allowed(
    user: UserInfo,
    verb: string,
    apiGroup: string,
    resource: string,
    subresource: string,
    name: string,
  ): boolean {
    const path = `${apiGroup ? `/apis/${apiGroup}` : '/api'}/v1alpha1/${resource}`;
    const attrs = { isResourceRequest: true, path, verb, apiGroup, resource, subresource };
    return this.authorizer.decide(user, { ...attrs, name: verb === 'create' ? '' : name }).decision === 'Allow';
  }

  /** What the user-cleanup controller does for every user marked for deletion: off every binding, then gone. */
  private cleanUpUsers(): void {
    for (const [name, user] of [...this.users]) {
      if (!user.metadata.deletionTimestamp) continue;
      for (const [bindingName, b] of [...this.bindings]) {
        if (!b.subjects.some((s) => s.name === name)) continue;
        const subjects = b.subjects.filter((s) => s.name !== name);
        this.setBinding(bindingName, subjects.length ? { ...b, subjects } : undefined);
      }
      this.setUser(name, undefined);
      this.boundAtMark.delete(name);
    }
    this.converge();
  }

  /**
   * What breaks the world's promises about users, `[]` when none: some enabled user stays bound to super-role;
   * a user marked for deletion gains no binding; nobody who is gone is named by a binding once cleaned up.
   */
  userProblems(): string[] {
    const problems: string[] = [];
    if (this.superAdmins.enabledSuperAdmins().size === 0) problems.push('no enabled super administrator is left');
    for (const [name, b] of this.bindings) {
      for (const { name: subject } of b.subjects) {
        const user = this.users.get(subject);
        if (user?.metadata.deletionTimestamp && !this.boundAtMark.get(subject)?.has(name))
          problems.push(`binding ${name} was given ${subject} while ${subject} was being deleted`);
      }
    }
    return problems;
  }

  /** Each binding's subjects now, to compare with later ones (`unauthorisedRemovals`). */
  subjectsNow(): Map<string, string[]> {
    return new Map([...this.bindings].map(([name, b]) => [name, b.subjects.map((s) => s.name)]));
  }

  /**
   * Subjects taken off bindings since `before` that `actor` could not have taken off with a request of their own:
   * a binding gone needs `delete` on it, a subject gone from one that stays needs `update` or `patch`. Decided on
   * the grants `actor` held before (`decide`, given by the caller, answers then).
   */
  unauthorisedRemovals(before: Map<string, string[]>, decide: (verb: string, binding: string) => boolean): string[] {
    const problems: string[] = [];
    for (const [name, subjects] of before) {
      const now = this.bindings.get(name)?.subjects.map((s) => s.name);
      const lost = subjects.filter((s) => !now?.includes(s));
      if (lost.length === 0) continue;
      const allowed = now === undefined ? decide('delete', name) : decide('update', name) || decide('patch', name);
      if (!allowed) problems.push(`${lost.join(', ')} taken off binding ${name} without the right to`);
    }
    return problems;
  }

  /** A decision function for `unauthorisedRemovals`, on the grants `actor` holds now. */
  bindingDecisions(actor: Actor): (verb: string, binding: string) => boolean {
    const user = this.userInfo(actor);
    const decisions = new Map<string, boolean>();
    for (const name of this.bindings.keys()) {
      for (const verb of ['delete', 'update', 'patch'])
        decisions.set(`${verb} ${name}`, this.allowed(user, verb, '', 'rolebindings', '', name));
    }
    return (verb, binding) => decisions.get(`${verb} ${binding}`) ?? false;
  }

  /** Role assignment's reads and writes in this world. */
  private assignmentDeps(): RoleAssignmentDeps {
    return {
      bindingsOf: (user) => this.bindingsOf(user),
      binding: (name) => this.bindings.get(name),
      roleExists: (name) => this.roles.has(name),
      allows: async (user, info) => this.authorizer.decide(user, info).decision === 'Allow',
      superAdmins: this.superAdmins,
      bindings: {
        create: async (object, opts = {}) => {
          const input = object as RoleBinding;
          const name = input.metadata.name ?? `${input.metadata.generateName}${++this.generated}`;
          if (this.bindings.has(name)) throw Object.assign(new Error('exists'), { code: 409 });
          const next = { ...input, metadata: { name } };
          const admitted = await this.bindingHooks.beforeCreate!(next, { user: opts.user, dryRun: !!opts.dryRun });
          if (!opts.dryRun) this.setBinding(name, admitted as RoleBinding);
          return { object: admitted, warnings: [] };
        },
        delete: async (name, _preconditions, opts = {}) => {
          const current = this.bindings.get(name)!;
          await this.bindingHooks.beforeDelete!(current, { user: opts.user, dryRun: !!opts.dryRun });
          if (!opts.dryRun) this.setBinding(name, undefined);
          return { object: current, removed: true };
        },
        patch: async (name, patch, opts = {}) => {
          const current = this.bindings.get(name)!;
          const next = patch(structuredClone(current)) as ApiObject;
          const admitted = await this.bindingHooks.beforeUpdate!(next, current, {
            user: opts.user,
            dryRun: !!opts.dryRun,
          });
          if (!opts.dryRun) this.setBinding(name, admitted as RoleBinding);
          return { object: admitted, warnings: [] };
        },
      },
      log: logger.child({ component: 'rbac-world' }, { level: 'silent' }),
    };
  }

  private setBinding(name: string, next: RoleBinding | undefined): void {
    const previous = this.bindings.get(name);
    if (next) this.bindings.set(name, next);
    else this.bindings.delete(name);
    for (const listener of this.bindingListeners) listener(name, previous, next);
  }

  private setUser(name: string, next: ApiObject | undefined): void {
    const previous = this.users.get(name);
    if (next) this.users.set(name, next);
    else this.users.delete(name);
    for (const listener of this.userListeners) listener(name, previous, next);
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
      this.setBinding(write.name, undefined);
      return;
    }
    const next = binding(write.name, write.role, write.subjects);
    const admitted = current
      ? await this.bindingHooks.beforeUpdate!(next, current, ctx)
      : await this.bindingHooks.beforeCreate!(next, ctx);
    this.setBinding(write.name, admitted as RoleBinding);
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

function userObject(name: string): ApiObject {
  return { apiVersion: 'v1alpha1', kind: 'User', metadata: { name }, spec: {} };
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
