import type { ObjectMeta } from '../object';
import { validateAnnotations } from './annotations';
import { type FieldCause, forbiddenValue, requiredValue, typeInvalid } from './causes';
import { validateFinalizers } from './finalizers';
import { validateLabels } from './labels';
import { validateGenerateName, validateName } from './name';
import { isPlainObject } from '../plain-object';

/** How `validateObjectMeta` checks metadata; every option defaults to off. */
export interface ObjectMetaValidationOptions {
  /** The name (and generateName) may hold dots between DNS labels: a Model's `<plural>.<group>`. */
  dns1123Subdomain?: boolean;
  /** Objects a plugin declares: refuse unprefixed and `svc.run` label keys (docs/api.md). */
  restrictPlatformKeys?: boolean;
  /** Label keys admitted despite `restrictPlatformKeys`: exact keys, or prefixes ending in `*`. */
  allowedPlatformKeys?: readonly string[];
}

/** JSON `null` is treated as absent, as Kubernetes' decoder does. */
const isAbsent = (value: unknown): value is undefined | null => value === undefined || value === null;

/** A string field: its causes when it is neither absent nor a string, and its value ('' when absent). */
function stringField(meta: Record<string, unknown>, key: string, causes: FieldCause[]): string {
  const value = meta[key];
  if (isAbsent(value)) return '';
  if (typeof value === 'string') return value;
  causes.push(typeInvalid(`metadata.${key}`, value, 'string'));
  return '';
}

/** A map field (`labels`, `annotations`): its causes when it is not an object, and its value. */
function mapField(meta: Record<string, unknown>, key: string, causes: FieldCause[]): Record<string, unknown> {
  const value = meta[key];
  if (isAbsent(value)) return {};
  if (isPlainObject(value)) return value;
  causes.push(typeInvalid(`metadata.${key}`, value, 'object'));
  return {};
}

/** Empty or absent: a name field that names nothing. */
const isBlank = (value: unknown): boolean => isAbsent(value) || value === '';

function nameCauses(meta: Record<string, unknown>, options: ObjectMetaValidationOptions): FieldCause[] {
  const causes: FieldCause[] = [];
  const name = stringField(meta, 'name', causes);
  const generateName = stringField(meta, 'generateName', causes);
  const nameOptions = { dns1123Subdomain: options.dns1123Subdomain };
  if (generateName) causes.push(...validateGenerateName(generateName, nameOptions));
  if (name) causes.push(...validateName(name, nameOptions));
  if (isBlank(meta.name) && isBlank(meta.generateName)) {
    causes.push(requiredValue('metadata.name', 'name or generateName is required'));
  }
  return causes;
}

/**
 * Checks an object's metadata as a client sent it (any JSON): name or
 * generateName, labels, annotations and finalizers. Returns every failing
 * field, never only the first. Server-owned fields are not checked: the
 * server replaces them (docs/api.md).
 * @example validateObjectMeta({ name: 'ada', labels: { app: 'web' } }) // → []
 * @example validateObjectMeta({}) // → [{field: 'metadata.name', reason: 'FieldValueRequired', message: 'Required value: name or generateName is required'}]
 */
export function validateObjectMeta(meta: unknown, options: ObjectMetaValidationOptions = {}): FieldCause[] {
  if (isAbsent(meta)) return [requiredValue('metadata', 'metadata is required')];
  if (!isPlainObject(meta)) return [typeInvalid('metadata', meta, 'object')];
  const causes = nameCauses(meta, options);
  causes.push(...validateLabels(mapField(meta, 'labels', causes), options));
  causes.push(...validateAnnotations(mapField(meta, 'annotations', causes)));
  const finalizers = meta.finalizers;
  if (Array.isArray(finalizers)) causes.push(...validateFinalizers(finalizers));
  else if (!isAbsent(finalizers)) causes.push(typeInvalid('metadata.finalizers', finalizers, 'array'));
  return causes;
}

/**
 * The rules that compare an update with the stored object (run
 * `validateObjectMeta` on the new metadata as well): once the stored object
 * has a `deletionTimestamp`, no finalizer may be added (docs/api.md; removing
 * or reordering is fine).
 * @example validateMetadataUpdate({ deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: [] }, { finalizers: ['example.com/x'] })
 * // → [{field: 'metadata.finalizers', reason: 'FieldValueForbidden', message: 'Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers ["example.com/x"]'}]
 */
export function validateMetadataUpdate(old: ObjectMeta, next: ObjectMeta): FieldCause[] {
  if (!old.deletionTimestamp) return [];
  const before = new Set(old.finalizers ?? []);
  const after: unknown[] = Array.isArray(next.finalizers) ? next.finalizers : [];
  const added = [...new Set(after.filter((f): f is string => typeof f === 'string' && !before.has(f)))].sort();
  if (!added.length) return [];
  return [
    forbiddenValue(
      'metadata.finalizers',
      `no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}`,
    ),
  ];
}
