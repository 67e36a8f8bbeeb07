import { createHash } from 'node:crypto';
import {
  ADMITTED_ANNOTATION,
  aggregationTargetsOf,
  DEPENDENCIES_ANNOTATION,
  UI_PERMISSIONS_ANNOTATION,
  type Role,
} from './types';

/**
 * The admission stamp: the apiserver writes it on every role whose definition
 * passed the escalation check (and on the platform's own role writes). The
 * effective-rules computation follows a role's dependency and aggregation
 * edges only while its stamp matches its definition, so a role stored before
 * the check existed, written behind the apiserver's back, or checked by an
 * older version of the check, grants nothing beyond its own rules.
 */

/**
 * The version of the role-write check. Raise it when the check grows stricter:
 * every stamp made by the older check stops counting until the role is written
 * again (by someone the new check admits).
 */
export const ROLE_CHECK_VERSION = 'v1';

/** What a role's effective rules are made of, besides other roles: rules, edges, UI permissions. */
function definitionOf(role: Role): string {
  const annotations = role.metadata.annotations ?? {};
  return JSON.stringify([
    role.rules ?? [],
    annotations[DEPENDENCIES_ANNOTATION] ?? null,
    annotations[UI_PERMISSIONS_ANNOTATION] ?? null,
    aggregationTargetsOf(role),
  ]);
}

/** The stamp that admits `role` as it is now, e.g. `v1:3q2+7w…`. */
export function admissionStampFor(role: Role): string {
  const digest = createHash('sha256').update(definitionOf(role)).digest('base64url').slice(0, 22);
  return `${ROLE_CHECK_VERSION}:${digest}`;
}

/**
 * Whether each role object's stamp admits it, worked out once per object: the effective-rules computation asks
 * for every edge it visits, and the caches hand out the same (never mutated) object until the role changes.
 */
const admitted = new WeakMap<Role, boolean>();

/** Whether the role's stamp admits its current definition under the current check. */
export function isAdmitted(role: Role): boolean {
  let answer = admitted.get(role);
  if (answer === undefined) {
    answer = role.metadata.annotations?.[ADMITTED_ANNOTATION] === admissionStampFor(role);
    admitted.set(role, answer);
  }
  return answer;
}

/** A copy of `role` stamped as admitted (the annotation a client sent is replaced). */
export function withAdmissionStamp<R extends Role>(role: R): R {
  return {
    ...role,
    metadata: {
      ...role.metadata,
      annotations: { ...role.metadata.annotations, [ADMITTED_ANNOTATION]: admissionStampFor(role) },
    },
  };
}

/** A copy of `role` carrying the stamp `stamp` (or none), e.g. the stored one on a write that changes no definition. */
export function withStamp<R extends Role>(role: R, stamp: string | undefined): R {
  const annotations = { ...role.metadata.annotations };
  if (stamp === undefined) delete annotations[ADMITTED_ANNOTATION];
  else annotations[ADMITTED_ANNOTATION] = stamp;
  return { ...role, metadata: { ...role.metadata, annotations } };
}

/** `annotations` without the admission stamp (`{}` when absent), e.g. to compare a stored role with a declared one. */
export function withoutAdmissionStamp(annotations: Record<string, string> | undefined): Record<string, string> {
  const rest = { ...annotations };
  delete rest[ADMITTED_ANNOTATION];
  return rest;
}
