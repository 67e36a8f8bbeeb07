import { forbidden, invalid, type StatusCause } from '../../api/errors';
import type { ApiObject } from '../../api/object';
import { DISPLAY_NAME_ANNOTATION, MODULE_ANNOTATION } from '../../api/role-keys';
import { RESOURCE_VERBS } from '../../api/verbs';
import {
  ADMITTED_ANNOTATION,
  annotationArrayError,
  isAdmitted,
  DEPENDENCIES_ANNOTATION,
  SUPER_ROLE,
  UI_PERMISSIONS_ANNOTATION,
  type PolicyRule,
  type Role,
  withAdmissionStamp,
  withStamp,
} from '../../auth/rbac';
import type { UserInfo } from '../../auth/user';
import type { Model } from '../model';
import type { HookContext, StoreHooks } from '../resource-store';
import type { EscalationGuard } from './escalation';
import { conditionCauses, type ModelIndexes } from './rule-conditions';
import { jsonEqual } from '../../util/json-equal';

/** The verbs a rule may name: the resource verbs (docs/security.md), the lower-cased methods of non-resource requests, and `*`. */
export const RULE_VERBS = ['*', ...RESOURCE_VERBS, 'escalate', 'bind', 'post', 'put', 'head', 'options'];

const stringList = { type: 'array', items: { type: 'string' } };

/**
 * `Role` (core group, `/api/v1alpha1/roles`): rules, Kubernetes-style, at the
 * top level; dependencies, UI permissions, module and display name in
 * annotations; aggregation and template markers in labels (docs/security.md).
 * `status` is written by the role-aggregation controller: the effective rules
 * the apiserver enforces, and where each came from.
 */
export const ROLE_KIND: Model = {
  group: '',
  version: 'v1alpha1',
  kind: 'Role',
  singular: 'role',
  plural: 'roles',
  schema: {
    type: 'object',
    properties: {
      rules: {
        type: 'array',
        items: {
          type: 'object',
          required: ['verbs'],
          properties: {
            verbs: { type: 'array', minItems: 1, items: { type: 'string', enum: RULE_VERBS } },
            apiGroups: stringList,
            resources: stringList,
            resourceNames: stringList,
            nonResourceURLs: stringList,
            where: {
              type: 'object',
              properties: { fieldSelector: { type: 'string' }, labelSelector: { type: 'string' } },
            },
          },
        },
      },
      status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
  },
  // A rule that lost a misspelled `resourceNames` (or a condition) would grant the whole type.
  strictFields: ['rules'],
  printerColumns: [
    {
      name: 'Display Name',
      type: 'string',
      jsonPath: `.metadata.annotations.${DISPLAY_NAME_ANNOTATION.replaceAll('.', '\\.')}`,
    },
    { name: 'Module', type: 'string', jsonPath: `.metadata.annotations.${MODULE_ANNOTATION.replaceAll('.', '\\.')}` },
  ],
};

/**
 * Role writes: annotations that must hold JSON arrays are checked (422 naming
 * the key), rules must be well-formed, `super-role` can be neither changed nor
 * deleted (403, as Kubernetes answers for its protected objects) and its status
 * is written only by `writesSuperRoleStatus` (the aggregation controller's
 * identity), and a user may write only a role whose effect they could grant
 * themselves (escalation, checked on every role the write changes). A write
 * that passes is stamped as admitted (`ADMITTED_ANNOTATION`); one that changes
 * no definition keeps the stamp it had.
 */
export function roleHooks(
  guard: EscalationGuard,
  writesSuperRoleStatus: (user: UserInfo) => boolean,
  indexesOf?: ModelIndexes,
): StoreHooks {
  const checkRole = (object: ApiObject) => checkRoleDefinition(object, indexesOf);
  return {
    beforeCreate(object, ctx) {
      checkRole(object);
      const write = { verb: 'create', resource: 'roles', name: object.metadata.name } as const;
      guard.checkRoleWrite(ctx.user, object as Role, write);
      return withAdmissionStamp(object as Role);
    },
    beforeUpdate(next, current, ctx) {
      const changed = definitionChanged(next, current);
      if (next.metadata.name === SUPER_ROLE) checkSuperRoleWrite(next, current, ctx.user, writesSuperRoleStatus);
      // Rules kept as they were are not checked against the models again: one written before its model was served
      // (or before an index was dropped) grants nothing, the status says so, and it must not block other writes.
      checkRoleDefinition(next, jsonEqual((next as Role).rules, (current as Role).rules) ? undefined : indexesOf);
      const write = { verb: 'update', resource: 'roles', name: next.metadata.name } as const;
      if (statusChanged(next, current)) checkStatusWrite(guard, next as Role, ctx.user);
      // A status write, or a write that changes nothing an admitted role grants, keeps the stamp it had; any
      // other write is judged as granting the whole definition (so writing an unadmitted role again admits it).
      if (!changed && (statusChanged(next, current) || isAdmitted(current as Role))) {
        return withStamp(next as Role, current.metadata.annotations?.[ADMITTED_ANNOTATION]);
      }
      guard.checkRoleWrite(ctx.user, next as Role, write);
      return withAdmissionStamp(next as Role);
    },
    beforeDelete(current: ApiObject, ctx: HookContext) {
      if (current.metadata.name === SUPER_ROLE && ctx.user) throw immutable();
    },
  };
}

/** The apiserver enforces `status.rules` and `status.uiPermissions`: writing them is granting them. */
function checkStatusWrite(guard: EscalationGuard, next: Role, user: UserInfo | undefined): void {
  const write = { verb: 'update', resource: 'roles', subresource: 'status', name: next.metadata.name } as const;
  guard.checkRules(user, next.status?.rules ?? [], write);
  guard.checkUiPermissions(user, next.status?.uiPermissions ?? [], write);
}

/** 403 unless the write leaves super-role's definition alone and, but for its status writer, its status too. */
function checkSuperRoleWrite(
  next: ApiObject,
  current: ApiObject,
  user: UserInfo | undefined,
  writesStatus: (user: UserInfo) => boolean,
): void {
  if (!user) return; // the platform's own writes (the bootstrap resets it to the manifest)
  if (definitionChanged(next, current)) throw immutable();
  if (statusChanged(next, current) && !writesStatus(user)) throw immutable();
}

const immutable = () =>
  forbidden(`role "${SUPER_ROLE}" is built in: it cannot be changed or deleted`, {
    resource: 'roles',
    name: SUPER_ROLE,
  });

/** Whether anything but the status, the admission stamp and server fields differs. */
function definitionChanged(next: ApiObject, current: ApiObject): boolean {
  const pick = (o: ApiObject) => [
    o.rules ?? [],
    o.metadata.labels ?? {},
    { ...o.metadata.annotations, [ADMITTED_ANNOTATION]: null },
    o.metadata.finalizers ?? [],
  ];
  return !jsonEqual(pick(next), pick(current));
}

/** Whether the status differs. */
const statusChanged = (next: ApiObject, current: ApiObject): boolean =>
  !jsonEqual(next.status ?? null, current.status ?? null);

function checkRoleDefinition(object: ApiObject, indexesOf: ModelIndexes | undefined): void {
  const causes: StatusCause[] = [];
  const annotations = object.metadata.annotations ?? {};
  for (const key of [DEPENDENCIES_ANNOTATION, UI_PERMISSIONS_ANNOTATION]) {
    if (annotations[key] === undefined) continue;
    const error = annotationArrayError(annotations[key]);
    if (error) causes.push({ field: `metadata.annotations[${key}]`, reason: 'FieldValueInvalid', message: error });
  }
  ((object as Role).rules ?? []).forEach((rule: PolicyRule, i) => {
    causes.push(...ruleCauses(rule, `rules[${i}]`), ...conditionCauses(rule, `rules[${i}]`, indexesOf));
  });
  if (causes.length) throw invalid({ kind: 'Role', name: object.metadata.name }, causes);
}

/** A rule names resources (with API groups) or non-resource URLs; names only narrow resources. */
function ruleCauses(rule: PolicyRule, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  const has = (list?: string[]) => (list?.length ?? 0) > 0;
  if (!has(rule.resources) && !has(rule.nonResourceURLs)) {
    causes.push({ field, reason: 'FieldValueRequired', message: 'a rule names resources or nonResourceURLs' });
  }
  if (has(rule.resources) && !has(rule.apiGroups)) {
    causes.push({
      field: `${field}.apiGroups`,
      reason: 'FieldValueRequired',
      message: 'a resource rule names its API groups ("" for the core group)',
    });
  }
  if (has(rule.resourceNames) && !has(rule.resources)) {
    causes.push({
      field: `${field}.resourceNames`,
      reason: 'FieldValueForbidden',
      message: 'resourceNames narrow resources; this rule names none',
    });
  }
  return causes;
}
