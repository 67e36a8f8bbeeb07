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

/** What a cause says: its reason and message (the field is added by `cause`). */
type CauseBody = Omit<StatusCause, 'field'>;

/** What one failed keyword reads: the error's params, the value, and where it is (`spec.age in body`). */
interface KeywordFailure {
  keyword: string;
  params: Record<string, unknown>;
  value: unknown;
  where: string;
}

/** The cause of each keyword Kubernetes words on its own; any other is FieldValueInvalid with its rule's text. */
const CAUSES = new Map<string, (f: KeywordFailure) => CauseBody>(
  Object.entries({
    required: () => ({ reason: 'FieldValueRequired', message: 'Required value' }),
    enum: ({ params, value }) => {
      const allowed = (params.allowedValues as unknown[]).map((v) =>
        JSON.stringify(typeof v === 'string' ? v : JSON.stringify(v)),
      );
      return {
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: ${formatValue(value)}: supported values: ${allowed.join(', ')}`,
      };
    },
    maxLength: ({ params }) => ({
      reason: 'FieldValueTooLong',
      message: `Too long: may not be more than ${String(params.limit)} characters`,
    }),
    maxItems: (f) => tooMany(f, 'items'),
    maxProperties: (f) => tooMany(f, 'properties'),
    type: (f) => typeInvalid(f, String(f.params.type)),
    'x-kubernetes-int-or-string': (f) => typeInvalid(f, 'int-or-string'),
    uniqueItems: ({ value }) => ({ reason: 'FieldValueDuplicate', message: `Duplicate value: ${formatValue(value)}` }),
  } satisfies Record<string, (f: KeywordFailure) => CauseBody>),
);

function tooMany({ params, value }: KeywordFailure, noun: string): CauseBody {
  const count = Array.isArray(value) ? value.length : Object.keys(value ?? {}).length;
  return {
    reason: 'FieldValueTooMany',
    message: `Too many: ${count}: must have at most ${String(params.limit)} ${noun}`,
  };
}

function typeInvalid({ value, where }: KeywordFailure, expected: string): CauseBody {
  const actual = JSON.stringify(jsonType(value));
  return {
    reason: 'FieldValueTypeInvalid',
    message: `Invalid value: ${actual}: ${where} must be of type ${expected}: ${actual}`,
  };
}

function cause(error: ErrorObject, field: string, value: unknown): StatusCause {
  const failure: KeywordFailure = {
    keyword: error.keyword,
    params: error.params as Record<string, unknown>,
    value,
    where: field === '' ? 'body' : `${field} in body`,
  };
  const body = CAUSES.get(error.keyword)?.(failure) ?? {
    reason: 'FieldValueInvalid',
    message: `Invalid value: ${formatValue(value)}: ${failure.where} ${ruleText(failure)}`,
  };
  return field === '' ? body : { field, ...body };
}

/** The rule each other keyword states, worded as go-openapi words it (Kubernetes' validator). */
const RULES = new Map<string, (params: Record<string, unknown>, value: unknown) => string>(
  Object.entries({
    minLength: (p) => `should be at least ${String(p.limit)} chars long`,
    minItems: (p) => `should have at least ${String(p.limit)} items`,
    minProperties: (p) => `should have at least ${String(p.limit)} properties`,
    minimum: (p) => `should be greater than or equal to ${String(p.limit)}`,
    maximum: (p) => `should be less than or equal to ${String(p.limit)}`,
    exclusiveMinimum: (p) => `should be greater than ${String(p.limit)}`,
    exclusiveMaximum: (p) => `should be less than ${String(p.limit)}`,
    multipleOf: (p) => `should be a multiple of ${String(p.multipleOf)}`,
    pattern: (p) => `should match '${String(p.pattern)}'`,
    format: (p, value) => `must be of type ${String(p.format)}: ${formatValue(value)}`,
    additionalProperties: () => 'is not declared by the schema',
    anyOf: () => 'must match at least one schema in anyOf',
    oneOf: () => 'must match exactly one schema in oneOf',
    not: () => 'must not match the schema in not',
  } satisfies Record<string, (params: Record<string, unknown>, value: unknown) => string>),
);

/** The rule an error broke, worded as go-openapi words it (Kubernetes' validator). */
function ruleText({ keyword, params, value }: KeywordFailure): string {
  return RULES.get(keyword)?.(params, value) ?? `must satisfy "${keyword}"`;
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
