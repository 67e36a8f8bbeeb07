import type { ErrorObject } from 'ajv';
import type { StatusCause } from '../../api/errors';
import { formatFieldPath, pointerPathSegments, type PathSegment } from './field-path';
import { hasOwn } from '../../util/own';

/**
 * Turns ajv's errors into Kubernetes validation causes, with the reasons and
 * message shapes of apiextensions' `ValidateCustomResource`:
 *
 * | rule | reason | message |
 * |---|---|---|
 * | required | FieldValueRequired | `Required value` |
 * | enum | FieldValueNotSupported | `Unsupported value: "X": supported values: "MALE", "FEMALE"` |
 * | maxLength | FieldValueTooLong | `Too long: may not be more than 100 characters` |
 * | maxItems, maxProperties | FieldValueTooMany | `Too many: 4: must have at most 3 items` |
 * | type, int-or-string | FieldValueTypeInvalid | `Invalid value: "string": spec.age in body must be of type integer: "string"` |
 * | uniqueItems | FieldValueDuplicate | `Duplicate value: "a"` |
 * | anything else | FieldValueInvalid | `Invalid value: 200: spec.age in body should be less than or equal to 150` |
 *
 * Once a field has the wrong type, its other failures (an enum, a bound) are left
 * out: they only repeat it. Echoed string values are cut at 200 characters.
 */
export function causesFromAjvErrors(errors: readonly ErrorObject[], data: unknown): StatusCause[] {
  const located = errors.map((error) => ({ error, ...locate(error, data) }));
  const mistyped = new Set(located.filter((l) => isTypeError(l.error)).map((l) => l.field));
  return located
    .filter((l) => isTypeError(l.error) || !mistyped.has(l.field))
    .map((l) => cause(l.error, l.field, l.value));
}

const isTypeError = (e: ErrorObject) => e.keyword === 'type' || e.keyword === 'x-kubernetes-int-or-string';

/** Where an error is (as a field path) and the value found there. */
function locate(error: ErrorObject, data: unknown): { field: string; value: unknown } {
  const segments: PathSegment[] = pointerPathSegments(error.instancePath, data);
  let value = valueAt(data, segments);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') {
    segments.push(String(params.missingProperty));
    value = undefined;
  } else if (error.keyword === 'additionalProperties') {
    segments.push(String(params.additionalProperty));
    value = valueAt(value, [String(params.additionalProperty)]);
  } else if (error.keyword === 'uniqueItems' && Array.isArray(value)) {
    const index = Math.max(Number(params.i), Number(params.j));
    segments.push(index);
    value = value[index];
  }
  return { field: formatFieldPath(segments), value };
}

function valueAt(data: unknown, segments: readonly PathSegment[]): unknown {
  let current = data;
  for (const segment of segments) {
    if (typeof current !== 'object' || current === null) return undefined;
    const key = String(segment);
    current = hasOwn(current, key) ? (current as Record<string, unknown>)[key] : undefined;
  }
  return current;
}

function cause(error: ErrorObject, field: string, value: unknown): StatusCause {
  const params = error.params as Record<string, unknown>;
  const where = field === '' ? 'body' : `${field} in body`;
  const invalid = (rule: string) => `Invalid value: ${formatValue(value)}: ${where} ${rule}`;
  const withField = (c: Omit<StatusCause, 'field'>): StatusCause => (field === '' ? c : { field, ...c });
  switch (error.keyword) {
    case 'required':
      return withField({ reason: 'FieldValueRequired', message: 'Required value' });
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map((v) =>
        JSON.stringify(typeof v === 'string' ? v : JSON.stringify(v)),
      );
      return withField({
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: ${formatValue(value)}: supported values: ${allowed.join(', ')}`,
      });
    }
    case 'maxLength':
      return withField({
        reason: 'FieldValueTooLong',
        message: `Too long: may not be more than ${String(params.limit)} characters`,
      });
    case 'maxItems':
    case 'maxProperties': {
      const count = Array.isArray(value) ? value.length : Object.keys(value ?? {}).length;
      const noun = error.keyword === 'maxItems' ? 'items' : 'properties';
      return withField({
        reason: 'FieldValueTooMany',
        message: `Too many: ${count}: must have at most ${String(params.limit)} ${noun}`,
      });
    }
    case 'type':
    case 'x-kubernetes-int-or-string': {
      const actual = JSON.stringify(jsonType(value));
      const expected = error.keyword === 'type' ? String(params.type) : 'int-or-string';
      return withField({
        reason: 'FieldValueTypeInvalid',
        message: `Invalid value: ${actual}: ${where} must be of type ${expected}: ${actual}`,
      });
    }
    case 'uniqueItems':
      return withField({ reason: 'FieldValueDuplicate', message: `Duplicate value: ${formatValue(value)}` });
    default:
      return withField({ reason: 'FieldValueInvalid', message: invalid(ruleText(error, params, value)) });
  }
}

/** The rule an error broke, worded as go-openapi words it (Kubernetes' validator). */
function ruleText(error: ErrorObject, params: Record<string, unknown>, value: unknown): string {
  const limit = String(params.limit);
  switch (error.keyword) {
    case 'minLength':
      return `should be at least ${limit} chars long`;
    case 'minItems':
      return `should have at least ${limit} items`;
    case 'minProperties':
      return `should have at least ${limit} properties`;
    case 'minimum':
      return `should be greater than or equal to ${limit}`;
    case 'maximum':
      return `should be less than or equal to ${limit}`;
    case 'exclusiveMinimum':
      return `should be greater than ${limit}`;
    case 'exclusiveMaximum':
      return `should be less than ${limit}`;
    case 'multipleOf':
      return `should be a multiple of ${String(params.multipleOf)}`;
    case 'pattern':
      return `should match '${String(params.pattern)}'`;
    case 'format':
      return `must be of type ${String(params.format)}: ${formatValue(value)}`;
    case 'additionalProperties':
      return 'is not declared by the schema';
    case 'anyOf':
      return 'must match at least one schema in anyOf';
    case 'oneOf':
      return 'must match exactly one schema in oneOf';
    case 'not':
      return 'must not match the schema in not';
    default:
      return `must satisfy "${error.keyword}"`;
  }
}

/** The JSON type of a value, as type errors name it (`integer` only for whole numbers). */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const MAX_ECHO = 200;

/** A value as messages show it: strings quoted, numbers and booleans as is, objects and arrays by their type. */
function formatValue(value: unknown): string {
  if (typeof value === 'string') {
    return JSON.stringify(value.length > MAX_ECHO ? `${value.slice(0, MAX_ECHO)}...` : value);
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return JSON.stringify(jsonType(value));
}
