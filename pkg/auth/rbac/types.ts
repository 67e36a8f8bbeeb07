import type { ApiObject } from '../../api/object';
import { AGGREGATE_TO_PREFIX, DEPENDENCIES_ANNOTATION, UI_PERMISSIONS_ANNOTATION } from '../../api/role-keys';

/**
 * Roles, bindings and the labels and annotations that tie roles together
 * (docs/security.md). Rules only allow; there are no deny rules.
 */

/**
 * A resource rule's condition: selectors (the list syntax) that an object must match for the rule to allow a
 * request about it; `${user.name}` stands for the caller's name. Both parts are optional; present ones must hold.
 */
export interface RuleCondition {
  fieldSelector?: string;
  labelSelector?: string;
}

/** One grant: resource rules name groups/resources(/names); non-resource rules name URL paths. */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
  /** Resource rules only: the rule allows only objects that match (see `conditions.ts`). */
  where?: RuleCondition;
}

/** A role that adds its rules to another's effective rules. */
export interface RoleContributor {
  name: string;
  via: 'dependency' | 'aggregation';
  /** the role whose dependency/aggregation edge brought it in */
  through: string;
}

/** An edge to another role that the effective rules leave out, and why (see `admission.ts`). */
export interface RefusedContributor extends RoleContributor {
  message: string;
}

/** What the aggregation controller writes: a role's effective rules and UI permissions, and where they came from. */
export interface RoleStatus {
  observedGeneration?: number;
  /**
   * The role's dependencies and UI-permissions annotations the status was
   * computed from (`observedDefinitionOf`): annotations do not move
   * `generation`, so this tells a status computed before they changed.
   */
  observedDefinition?: string;
  rules: PolicyRule[];
  uiPermissions: string[];
  contributors: RoleContributor[];
  /** Edges left out because the role that declares them was not admitted by the current role-write check. */
  refused?: RefusedContributor[];
  /** Effective conditional rules that grant nothing on some resource they name now, and why. */
  unusableConditions?: UnusableCondition[];
}

/**
 * A conditional rule that grants nothing on one resource: its model is not served (yet), or no longer indexes a
 * field the condition names. It starts granting once the model is served with those indexes.
 */
export interface UnusableCondition {
  rule: PolicyRule;
  /** `<plural>.<group>` (the bare plural in the core group). */
  resource: string;
  reason: 'ModelNotServed' | 'FieldNotIndexed';
  message: string;
}

/** `v1alpha1` `Role`: its own rules; `status` holds the effective ones. */
export interface Role extends ApiObject {
  rules?: PolicyRule[];
  status?: RoleStatus;
}

/** `v1alpha1` `RoleBinding`: grants one role to users. */
export interface RoleBinding extends ApiObject {
  roleRef: { apiGroup: ''; kind: 'Role'; name: string };
  subjects: { kind: 'User'; apiGroup: ''; name: string }[];
}

export * from '../../api/role-keys';
/** The role that allows everything. */
export const SUPER_ROLE = 'super-role';
/** The role every request holds. */
export const ANONYMOUS_ROLE = 'anonymous';
/** The role every logged-in request holds. */
export const AUTHENTICATED_ROLE = 'authenticated';

export { RESOURCE_VERBS } from '../../api/verbs';
/** The verb that matches every verb. */
export const ANY = '*';

/**
 * What is wrong with an annotation that must hold a JSON array of strings,
 * or `undefined` when it is fine (the registry answers 422 with it).
 *
 * @example annotationArrayError('["a", 1]') // 'must be a JSON array of strings: element 1 is a number'
 */
export function annotationArrayError(value: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (err) {
    return `must be a JSON array of strings: ${(err as Error).message}`;
  }
  if (!Array.isArray(parsed)) return `must be a JSON array of strings, not ${parsed === null ? 'null' : typeof parsed}`;
  const bad = parsed.findIndex((element) => typeof element !== 'string');
  if (bad >= 0) {
    const element: unknown = parsed[bad];
    return `must be a JSON array of strings: element ${bad} is ${element === null ? 'null' : `a ${typeof element}`}`;
  }
  return undefined;
}

function annotationArray(role: Role, key: string): string[] {
  const value = role.metadata.annotations?.[key];
  if (value === undefined || annotationArrayError(value) !== undefined) return [];
  return JSON.parse(value) as string[];
}

/** The role names in the dependencies annotation; `[]` when absent or invalid. */
export function dependenciesOf(role: Role): string[] {
  return annotationArray(role, DEPENDENCIES_ANNOTATION);
}

/** The UI permissions in the ui-permissions annotation; `[]` when absent or invalid. */
export function uiPermissionsOf(role: Role): string[] {
  return annotationArray(role, UI_PERMISSIONS_ANNOTATION);
}

/** The roles this role is aggregated into: every label `aggregate-to-<target>: "true"`. */
export function aggregationTargetsOf(role: Role): string[] {
  const targets: string[] = [];
  for (const [key, value] of Object.entries(role.metadata.labels ?? {})) {
    if (value === 'true' && key.startsWith(AGGREGATE_TO_PREFIX) && key.length > AGGREGATE_TO_PREFIX.length) {
      targets.push(key.slice(AGGREGATE_TO_PREFIX.length));
    }
  }
  return targets.sort();
}

/** What, besides its rules (`generation`), a role's status is computed from: see `RoleStatus.observedDefinition`. */
export function observedDefinitionOf(role: Role): string {
  const annotations = role.metadata.annotations ?? {};
  return JSON.stringify([annotations[DEPENDENCIES_ANNOTATION] ?? null, annotations[UI_PERMISSIONS_ANNOTATION] ?? null]);
}
