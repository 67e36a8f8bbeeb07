import {
  AGGREGATE_TO_PREFIX,
  DEPENDENCIES_ANNOTATION,
  UI_PERMISSIONS_ANNOTATION,
  withAdmissionStamp,
  type PolicyRule,
  type Role,
} from '../../pkg/auth/rbac';

/** How a test role is tied to others: its own rules, dependencies, aggregation targets and UI permissions. */
export interface TestRoleSpec {
  rules?: PolicyRule[];
  dependencies?: string[];
  aggregateTo?: string[];
  uiPermissions?: string[];
}

/** A valid Role named `name`, with the labels and annotations `spec` asks for. */
export function testRole(name: string, spec: TestRoleSpec = {}): Role {
  const annotations: Record<string, string> = {};
  if (spec.dependencies) annotations[DEPENDENCIES_ANNOTATION] = JSON.stringify(spec.dependencies);
  if (spec.uiPermissions) annotations[UI_PERMISSIONS_ANNOTATION] = JSON.stringify(spec.uiPermissions);
  const labels = Object.fromEntries(
    (spec.aggregateTo ?? []).map((target) => [`${AGGREGATE_TO_PREFIX}${target}`, 'true']),
  );
  // Stamped as the apiserver stamps what its role-write check admitted (a role sent to the apiserver is stamped
  // again there; one handed to a controller's cache directly needs it to count).
  return withAdmissionStamp({
    apiVersion: 'v1alpha1',
    kind: 'Role',
    metadata: { name, labels, annotations },
    rules: spec.rules ?? [],
  });
}

/** A rule allowing `get` on one resource of the group `test.example`. */
export const getRule = (resource: string): PolicyRule => ({
  apiGroups: ['test.example'],
  resources: [resource],
  verbs: ['get'],
});
