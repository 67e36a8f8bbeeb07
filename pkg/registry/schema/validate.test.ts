import { compileSchema } from './compile';
import type { OpenApiSchema } from './openapi-schema';

/** A model whose spec has the one field under test, at `spec.f`. */
const withField = (field: OpenApiSchema) =>
  compileSchema({ type: 'object', properties: { spec: { type: 'object', properties: { f: field } } } });

const check = (field: OpenApiSchema, value: unknown) => withField(field).validate({ spec: { f: value } });

describe('validation rules', () => {
  it.each<[string, OpenApiSchema, unknown, string, string]>([
    [
      'minLength',
      { type: 'string', minLength: 2 },
      'a',
      'FieldValueInvalid',
      'Invalid value: "a": spec.f in body should be at least 2 chars long',
    ],
    [
      'pattern',
      { type: 'string', pattern: '^[a-z]+$' },
      'A1',
      'FieldValueInvalid',
      'Invalid value: "A1": spec.f in body should match \'^[a-z]+$\'',
    ],
    [
      'format date-time',
      { type: 'string', format: 'date-time' },
      'yesterday',
      'FieldValueInvalid',
      'Invalid value: "yesterday": spec.f in body must be of type date-time: "yesterday"',
    ],
    [
      'exclusiveMinimum (OpenAPI boolean form)',
      { type: 'number', minimum: 0, exclusiveMinimum: true },
      0,
      'FieldValueInvalid',
      'Invalid value: 0: spec.f in body should be greater than 0',
    ],
    [
      'exclusiveMaximum (OpenAPI boolean form)',
      { type: 'number', maximum: 10, exclusiveMaximum: true },
      10,
      'FieldValueInvalid',
      'Invalid value: 10: spec.f in body should be less than 10',
    ],
    [
      'multipleOf',
      { type: 'integer', multipleOf: 5 },
      7,
      'FieldValueInvalid',
      'Invalid value: 7: spec.f in body should be a multiple of 5',
    ],
    [
      'minItems',
      { type: 'array', minItems: 2, items: { type: 'string' } },
      ['a'],
      'FieldValueInvalid',
      'Invalid value: "array": spec.f in body should have at least 2 items',
    ],
    [
      'maxItems',
      { type: 'array', maxItems: 1, items: { type: 'string' } },
      ['a', 'b'],
      'FieldValueTooMany',
      'Too many: 2: must have at most 1 items',
    ],
    [
      'maxProperties',
      { type: 'object', maxProperties: 1, additionalProperties: { type: 'string' } },
      { a: 'x', b: 'y' },
      'FieldValueTooMany',
      'Too many: 2: must have at most 1 properties',
    ],
    [
      'type object',
      { type: 'object' },
      'text',
      'FieldValueTypeInvalid',
      'Invalid value: "string": spec.f in body must be of type object: "string"',
    ],
    [
      'type boolean',
      { type: 'boolean' },
      'true',
      'FieldValueTypeInvalid',
      'Invalid value: "string": spec.f in body must be of type boolean: "string"',
    ],
    [
      'x-kubernetes-int-or-string',
      { 'x-kubernetes-int-or-string': true },
      true,
      'FieldValueTypeInvalid',
      'Invalid value: "boolean": spec.f in body must be of type int-or-string: "boolean"',
    ],
  ])('%s', (_rule, field, value, reason, message) => {
    expect(check(field, value)).toEqual([{ field: 'spec.f', reason, message }]);
  });

  it.each<[string, OpenApiSchema, unknown]>([
    ['a string of minLength', { type: 'string', minLength: 2 }, 'ab'],
    ['a pattern match', { type: 'string', pattern: '^[a-z]+$' }, 'abc'],
    ['an RFC 3339 date-time', { type: 'string', format: 'date-time' }, '2026-11-22T02:28:01.123Z'],
    ['a number above an exclusive minimum', { type: 'number', minimum: 0, exclusiveMinimum: true }, 0.5],
    ['an int for int-or-string', { 'x-kubernetes-int-or-string': true }, 8080],
    ['a string for int-or-string', { 'x-kubernetes-int-or-string': true }, 'http'],
    ['null where nullable', { type: 'string', nullable: true }, null],
    ['null where nullable with an enum', { type: 'string', nullable: true, enum: ['a'] }, null],
  ])('accepts %s', (_what, field, value) => {
    expect(check(field, value)).toEqual([]);
  });

  it('refuses null where the field is not nullable', () => {
    expect(check({ type: 'string' }, null)).toEqual([expect.objectContaining({ reason: 'FieldValueTypeInvalid' })]);
  });

  it('reports a duplicate array element at its index', () => {
    expect(check({ type: 'array', uniqueItems: true, items: { type: 'string' } }, ['a', 'b', 'a'])).toEqual([
      { field: 'spec.f[2]', reason: 'FieldValueDuplicate', message: 'Duplicate value: "a"' },
    ]);
  });

  it('reports only the type error of a mistyped field, not its enum too', () => {
    expect(check({ type: 'string', enum: ['a'] }, 5)).toEqual([
      expect.objectContaining({ reason: 'FieldValueTypeInvalid' }),
    ]);
  });

  it('validates the entries of a map (additionalProperties) under their keys', () => {
    expect(check({ type: 'object', additionalProperties: { type: 'integer' } }, { a: 1, b: 'x' })).toEqual([
      expect.objectContaining({ field: 'spec.f.b', reason: 'FieldValueTypeInvalid' }),
    ]);
  });

  it('names required fields inside array elements', () => {
    const items = {
      type: 'array',
      items: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
    };
    expect(check(items, [{ id: 'a' }, {}])).toEqual([
      { field: 'spec.f[1].id', reason: 'FieldValueRequired', message: 'Required value' },
    ]);
  });

  it('cuts long echoed values short', () => {
    const [cause] = check({ type: 'string', pattern: '^a$' }, 'b'.repeat(5000));
    expect(cause.message.length).toBeLessThan(300);
  });

  it('checks apiVersion and kind as strings and keeps metadata as given', () => {
    const schema = compileSchema({ type: 'object', properties: { spec: { type: 'object' } } });
    expect(schema.validate({ apiVersion: 1, kind: 'K', metadata: { anything: [1] } })).toEqual([
      expect.objectContaining({ field: 'apiVersion', reason: 'FieldValueTypeInvalid' }),
    ]);
  });

  it('reports a body that is not an object without a field', () => {
    expect(withField({ type: 'string' }).validate([])).toEqual([
      {
        reason: 'FieldValueTypeInvalid',
        message: 'Invalid value: "array": body must be of type object: "array"',
      },
    ]);
  });
});
