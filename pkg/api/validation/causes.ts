import type { StatusCause } from '../errors';

/**
 * Builders for the causes of a 422 `Invalid` error, in Kubernetes' form
 * (`k8s.io/apimachinery/pkg/util/validation/field`): the cause's `reason` is
 * the error type and its `message` is the error body, e.g.
 * `{field: 'metadata.name', reason: 'FieldValueInvalid', message: 'Invalid value: "Ada": …'}`.
 */

/** The `reason` of a validation cause; the names Kubernetes sends. */
export type CauseReason =
  | 'FieldValueInvalid'
  | 'FieldValueRequired'
  | 'FieldValueTooLong'
  | 'FieldValueForbidden'
  | 'FieldValueNotSupported'
  | 'FieldValueDuplicate'
  | 'FieldValueTypeInvalid';

/** A validation cause: always has a field path and a reason. */
export interface FieldCause extends StatusCause {
  field: string;
  reason: CauseReason;
}

/** A value as messages quote it: JSON, so strings get double quotes (Go's `%q`). */
const quote = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** `Invalid value: "Ada": <detail>`. */
export const invalidValue = (field: string, value: unknown, detail: string): FieldCause => ({
  field,
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${quote(value)}: ${detail}`,
});

/** `Required value: <detail>`. */
export const requiredValue = (field: string, detail: string): FieldCause => ({
  field,
  reason: 'FieldValueRequired',
  message: `Required value: ${detail}`,
});

/** `Too long: may not be more than 253 characters`; the value is left out, as Kubernetes does. */
export const tooLong = (field: string, max: number, unit: 'characters' | 'bytes'): FieldCause => ({
  field,
  reason: 'FieldValueTooLong',
  message: `Too long: may not be more than ${max} ${unit}`,
});

/** `Forbidden: <detail>`. */
export const forbiddenValue = (field: string, detail: string): FieldCause => ({
  field,
  reason: 'FieldValueForbidden',
  message: `Forbidden: ${detail}`,
});

/** `Unsupported value: "x": supported values: "a", "b"`. */
export const notSupported = (field: string, value: unknown, supported: readonly string[]): FieldCause => ({
  field,
  reason: 'FieldValueNotSupported',
  message: `Unsupported value: ${quote(value)}: supported values: ${supported.map(quote).join(', ')}`,
});

/** `Duplicate value: "x"`. */
export const duplicateValue = (field: string, value: unknown): FieldCause => ({
  field,
  reason: 'FieldValueDuplicate',
  message: `Duplicate value: ${quote(value)}`,
});

/** `Invalid value: 5: must be of type string`: the JSON type is wrong. */
export const typeInvalid = (field: string, value: unknown, type: string): FieldCause => ({
  field,
  reason: 'FieldValueTypeInvalid',
  message: `Invalid value: ${quote(value)}: must be of type ${type}`,
});
