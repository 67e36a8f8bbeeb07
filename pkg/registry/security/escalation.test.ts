import { StatusError } from '../../api/errors';
import {
  canonicalRule,
  enforcedRole,
  RbacAuthorizer,
  SimpleRoleGraph,
  type PolicyRule,
  type RbacSource,
  type Role,
} from '../../auth/rbac';
import type { UserInfo } from '../../auth/user';
import { escalationGuard } from './escalation';

const createBindings: PolicyRule = { apiGroups: [''], resources: ['rolebindings', 'roles'], verbs: ['create'] };
const editPosts: PolicyRule = { apiGroups: ['content.svc.run'], resources: ['posts'], verbs: ['update'] };

const role = (name: string, rules: PolicyRule[]): Role => ({
  apiVersion: 'v1alpha1',
  kind: 'Role',
  metadata: { name, generation: 1 },
  rules,
});
const roles = new Map(
  [role('binder', [createBindings]), role('editor', [editPosts])].map((r) => [r.metadata.name!, r]),
);
const source: RbacSource = {
  bindingsOf: (user) => (user === 'vera' ? [{ binding: 'vera-binder', role: 'binder' }] : []),
  role: (name) => (roles.has(name) ? enforcedRole(roles.get(name)!) : undefined),
};
const guard = escalationGuard(new RbacAuthorizer(source), source, new SimpleRoleGraph(roles.values()));
const vera: UserInfo = { name: 'vera', groups: ['authenticated', 'anonymous'] };

/** What `check` throws, or undefined when it allows the write. */
function refusal(check: () => void): StatusError | undefined {
  try {
    check();
  } catch (err) {
    return err as StatusError;
  }
  return undefined;
}

describe('escalationGuard', () => {
  it('names the binding, the user, the verb, the resource and the group, and the role it would grant', () => {
    const err = refusal(() =>
      guard.checkRole(vera, 'editor', { verb: 'create', resource: 'rolebindings', name: 'nora-editor' }),
    );
    expect(err?.toStatus()).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message:
        'rolebindings "nora-editor" is forbidden: User "vera" cannot create resource "rolebindings" in API group "": ' +
        `role "editor" grants what they do not hold themselves: ${JSON.stringify([canonicalRule(editPosts)])}`,
      details: { name: 'nora-editor', group: '', kind: 'rolebindings' },
    });
  });

  it('names a role write, its status, and a create without a name', () => {
    expect(
      refusal(() => guard.checkRules(vera, [editPosts], { verb: 'update', resource: 'roles', name: 'r' }))?.message,
    ).toMatch(/^roles "r" is forbidden: User "vera" cannot update resource "roles" in API group "": it grants /);
    const status = refusal(() =>
      guard.checkRules(vera, [editPosts], { verb: 'update', resource: 'roles', subresource: 'status', name: 'r' }),
    );
    expect(status?.message).toMatch(/cannot update resource "roles\/status" in API group "": its status grants /);
    expect(status?.details).toEqual({ name: 'r', group: '', kind: 'roles' });
    const unnamed = refusal(() => guard.checkRules(vera, [editPosts], { verb: 'create', resource: 'roles' }));
    expect(unnamed?.message).toMatch(/^roles is forbidden: User "vera" cannot create resource "roles"/);
    expect(unnamed?.details).toEqual({ group: '', kind: 'roles' });
  });

  it("allows what the user holds, and the platform's own writes", () => {
    expect(
      refusal(() => guard.checkRole(vera, 'binder', { verb: 'create', resource: 'rolebindings' })),
    ).toBeUndefined();
    expect(
      refusal(() => guard.checkRules(undefined, [editPosts], { verb: 'create', resource: 'roles' })),
    ).toBeUndefined();
  });
});
