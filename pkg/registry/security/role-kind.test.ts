import { StatusError } from '../../api/errors';
import {
  enforcedRole,
  RbacAuthorizer,
  SimpleRoleGraph,
  type PolicyRule,
  type RbacSource,
  type Role,
  type RoleStatus,
} from '../../auth/rbac';
import type { UserInfo } from '../../auth/user';
import { escalationGuard } from './escalation';
import { roleHooks } from './role-kind';

const admin: UserInfo = { name: 'admin', groups: ['authenticated', 'anonymous'] };
const controller: UserInfo = { name: 'system:controller-manager', groups: ['authenticated', 'anonymous'] };

// The real guard over a small world: admin holds super-role, the controller-manager holds escalate on roles.
const held: Role[] = [
  {
    apiVersion: 'v1alpha1',
    kind: 'Role',
    metadata: { name: 'super-role' },
    rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
  },
  {
    apiVersion: 'v1alpha1',
    kind: 'Role',
    metadata: { name: 'cm' },
    rules: [{ apiGroups: [''], resources: ['roles'], verbs: ['escalate'] }],
  },
];
const source: RbacSource = {
  bindingsOf: (user) =>
    user === 'admin'
      ? [{ binding: 'a', role: 'super-role' }]
      : user === controller.name
        ? [{ binding: 'c', role: 'cm' }]
        : [],
  role: (name) => {
    const role = held.find((r) => r.metadata.name === name);
    return role && enforcedRole(role);
  },
};
const guard = escalationGuard(new RbacAuthorizer(source), source, new SimpleRoleGraph(held));
const hooks = roleHooks(guard, (user) => user.name === controller.name);
const vera: UserInfo = { name: 'vera', groups: ['authenticated', 'anonymous'] };

const everything: PolicyRule = { apiGroups: ['*'], resources: ['*'], verbs: ['*'] };
const role = (name: string, status: RoleStatus): Role => ({
  apiVersion: 'v1alpha1',
  kind: 'Role',
  metadata: { name, generation: 1 },
  rules: [everything],
  status,
});
const status = (rules: PolicyRule[]): RoleStatus => ({
  observedGeneration: 1,
  rules,
  uiPermissions: [],
  contributors: [],
});

/** The error `beforeUpdate` throws for writing `next` over `current` as `user`, or undefined when it allows it. */
function refusal(next: Role, current: Role, user?: UserInfo): StatusError | undefined {
  try {
    void hooks.beforeUpdate!(next, current, { user, dryRun: false });
  } catch (err) {
    return err as StatusError;
  }
  return undefined;
}

describe('roleHooks: super-role', () => {
  const built = role('super-role', status([everything]));
  const blanked = role('super-role', status([]));

  it("refuses a status write to super-role by anyone but its status writer (the aggregation controller's identity)", () => {
    const refused = refusal(blanked, built, admin);
    expect(refused).toBeInstanceOf(StatusError);
    expect(refused?.toStatus()).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      details: { name: 'super-role', kind: 'roles' },
    });
    expect(refusal(blanked, built, controller)).toBeUndefined();
    expect(refusal(blanked, built, undefined)).toBeUndefined(); // the platform's own writes
  });

  it('lets a write that leaves the status as it is through, and other roles keep their status writable', () => {
    expect(refusal(built, built, admin)).toBeUndefined();
    expect(refusal(role('other', status([])), role('other', status([everything])), admin)).toBeUndefined();
  });

  it('refuses a status write that grants what the writer does not hold, to any role', () => {
    const other = role('other', status([]));
    expect(refusal(role('other', status([everything])), other, vera)?.message).toMatch(
      /cannot update resource "roles\/status".*its status grants what they do not hold/,
    );
    const ui = { ...other, status: { ...status([]), uiPermissions: ['*'] } };
    expect(refusal(ui, other, vera)?.message).toMatch(/its status grants UI permissions they do not hold/);
  });

  it('refuses a change of its rules even by the status writer', () => {
    expect(refusal({ ...built, rules: [] }, built, controller)?.code).toBe(403);
  });
});
