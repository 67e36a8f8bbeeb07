import { invalid } from '../../api/errors';
import type { ApiObject } from '../../api/object';
import type { RoleBinding } from '../../auth/rbac';
import type { Model } from '../model';
import type { StoreHooks } from '../resource-store';
import type { EscalationGuard, GuardedWrite } from './escalation';

/** The index that finds a user's bindings in one query: every subject's name. */
export const SUBJECTS_INDEX = 'subjects.name';
export const ROLE_REF_INDEX = 'roleRef.name';

/**
 * `RoleBinding` (core group, `/api/v1alpha1/rolebindings`): grants one role to
 * users, as Kubernetes' ClusterRoleBinding.
 */
export const ROLE_BINDING_KIND: Model = {
  group: '',
  version: 'v1alpha1',
  kind: 'RoleBinding',
  singular: 'rolebinding',
  plural: 'rolebindings',
  schema: {
    type: 'object',
    required: ['roleRef'],
    properties: {
      roleRef: {
        type: 'object',
        required: ['kind', 'name'],
        properties: {
          apiGroup: { type: 'string', enum: [''] },
          kind: { type: 'string', enum: ['Role'] },
          name: { type: 'string', minLength: 1 },
        },
      },
      subjects: {
        type: 'array',
        items: {
          type: 'object',
          required: ['kind', 'name'],
          properties: {
            kind: { type: 'string', enum: ['User'] },
            apiGroup: { type: 'string', enum: [''] },
            name: { type: 'string', minLength: 1 },
          },
        },
      },
    },
  },
  strictFields: ['roleRef', 'subjects'],
  indexes: [
    { name: SUBJECTS_INDEX, indexFunc: (o) => ((o as RoleBinding).subjects ?? []).map((s) => s.name) },
    { name: ROLE_REF_INDEX, indexFunc: (o) => (o as RoleBinding).roleRef?.name },
  ],
  printerColumns: [
    { name: 'Role', type: 'string', jsonPath: '.roleRef.name' },
    { name: 'Users', type: 'string', jsonPath: '.subjects[*].name' },
  ],
};

/** Looks a role up for a binding's checks. */
export interface RoleLookup {
  exists(name: string): Promise<boolean>;
}

/**
 * Binding writes: the role must exist (422 on `roleRef.name`), `roleRef` may
 * not change (as Kubernetes), and the writer must hold every rule of the role
 * (403 otherwise, unless they are the super administrator).
 */
export function roleBindingHooks(roles: RoleLookup, guard: EscalationGuard): StoreHooks {
  const admit = async (
    object: ApiObject,
    user: Parameters<EscalationGuard['checkRole']>[0],
    verb: GuardedWrite['verb'],
  ) => {
    const binding = object as RoleBinding;
    const role = binding.roleRef?.name;
    binding.roleRef = { apiGroup: '', kind: 'Role', name: role };
    binding.subjects = normalSubjects(binding);
    if (!(await roles.exists(role))) {
      throw invalid({ kind: 'RoleBinding', name: object.metadata.name }, [
        { field: 'roleRef.name', reason: 'FieldValueNotFound', message: `role "${role}" does not exist` },
      ]);
    }
    guard.checkRole(user, role, { verb, resource: 'rolebindings', name: object.metadata.name });
    return object;
  };
  return {
    beforeCreate: (object, ctx) => admit(object, ctx.user, 'create'),
    beforeUpdate: async (next, current, ctx) => {
      const was = (current as RoleBinding).roleRef?.name;
      if ((next as RoleBinding).roleRef?.name !== was) {
        throw invalid({ kind: 'RoleBinding', name: next.metadata.name }, [
          {
            field: 'roleRef',
            reason: 'FieldValueForbidden',
            message: 'cannot change roleRef: delete the binding and create another',
          },
        ]);
      }
      if (JSON.stringify((next as RoleBinding).subjects) === JSON.stringify((current as RoleBinding).subjects))
        return next;
      if (onlyRemovesSubjects(next as RoleBinding, current as RoleBinding)) {
        (next as RoleBinding).subjects = normalSubjects(next as RoleBinding);
        return next;
      }
      return admit(next, ctx.user, 'update');
    },
  };
}

/**
 * Whether an update only takes users off the binding (every subject it keeps was there before): that grants
 * nobody anything, so it needs the `update` verb alone, not the role's rules. It is how the controller-manager
 * takes a deleted user off bindings of roles it does not hold.
 */
function onlyRemovesSubjects(next: RoleBinding, current: RoleBinding): boolean {
  const before = new Set((current.subjects ?? []).map((s) => s.name));
  return (next.subjects ?? []).every((s) => s.kind === 'User' && before.has(s.name));
}

/** The binding's subjects in their stored form: `{kind: 'User', apiGroup: '', name}`. */
const normalSubjects = (binding: RoleBinding): RoleBinding['subjects'] =>
  (binding.subjects ?? []).map((s) => ({ kind: 'User', apiGroup: '', name: s.name }));
