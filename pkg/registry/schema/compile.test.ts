import { compileSchema } from './compile';
import { SchemaCompileError } from './compile-error';

/** The problems compiling `schema` reports, as `path: message` lines. */
function problemsOf(schema: unknown): string[] {
  try {
    compileSchema(schema);
  } catch (err) {
    if (err instanceof SchemaCompileError) return err.problems.map((p) => `${p.path}: ${p.message}`);
    throw err;
  }
  throw new Error('the schema compiled');
}

const spec = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties: { spec: { type: 'object', properties } },
});

describe('compiling a model schema', () => {
  it.each<[string, unknown, RegExp]>([
    ['a schema that is not an object', 'object', /^: the schema must be an object$/],
    ['a top level that is not an object type', { type: 'string' }, /^type: .*must have type "object"/],
    [
      'an unsupported keyword',
      spec({ a: { type: 'string', if: {} } }),
      /^properties\.spec\.properties\.a\.if: unsupported keyword "if"$/,
    ],
    ['a misspelt keyword', spec({ a: { type: 'string', maxLenght: 3 } }), /maxLenght/],
    [
      'CEL rules, which are not enforced',
      spec({ a: { type: 'string', 'x-kubernetes-validations': [] } }),
      /x-kubernetes-validations/,
    ],
    ['a $ref other than "#"', spec({ a: { $ref: '#/properties/spec' } }), /only "#"/],
    ['a $ref "#" that refers to the node it is in', { type: 'object', allOf: [{ $ref: '#' }] }, /would never end/],
    [
      'tuple items',
      spec({ a: { type: 'array', items: [{ type: 'string' }] } }),
      /^properties\.spec\.properties\.a\.items: must be one schema/,
    ],
    [
      'an unknown type',
      spec({ a: { type: 'strin' } }),
      /^properties\.spec\.properties\.a\.type: must be equal to one of the allowed values: "array", "boolean", "integer"/,
    ],
    [
      'a negative maxLength',
      spec({ a: { type: 'string', maxLength: -1 } }),
      /^properties\.spec\.properties\.a\.maxLength: must be >= 0$/,
    ],
    ['required that is not a list', { type: 'object', required: 'spec' }, /^required: must be array$/],
    [
      'a subschema that is not an object',
      spec({ a: 'string' }),
      /^properties\.spec\.properties\.a: must be a schema object$/,
    ],
    ['an unknown format', spec({ a: { type: 'string', format: 'colour' } }), /unknown format "colour"/],
    ['a pattern that is no regular expression', spec({ a: { type: 'string', pattern: '[' } }), /regular expression/i],
    [
      'exclusiveMinimum: true without minimum',
      spec({ a: { type: 'number', exclusiveMinimum: true } }),
      /exclusiveMinimum: needs a numeric "minimum"/,
    ],
    ['nullable without type', spec({ a: { nullable: true } }), /nullable/],
  ])('refuses %s', (_what, schema, expected) => {
    expect(problemsOf(schema)).toEqual(expect.arrayContaining([expect.stringMatching(expected)]));
  });

  it('reports one problem per place in the schema', () => {
    expect(problemsOf(spec({ a: { type: 'strin' } }))).toHaveLength(1);
  });

  it('lists every problem, not just the first', () => {
    const problems = problemsOf(
      spec({ a: { type: 'string', bogus: 1 }, b: { $ref: 'other' }, c: { items: [] }, d: { type: 'strin' } }),
    );
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'properties.spec.properties.a.bogus',
      'properties.spec.properties.b.$ref',
      'properties.spec.properties.c.items',
      'properties.spec.properties.d.type',
    ]);
  });

  it('turns problems into 422 causes under the Model field that holds the schema', () => {
    let caught: unknown;
    try {
      compileSchema(spec({ a: { type: 'string', bogus: 1 } }));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(SchemaCompileError);
    const error = caught as SchemaCompileError;
    expect(error.message).toBe('invalid schema: properties.spec.properties.a.bogus: unsupported keyword "bogus"');
    expect(error.causes()).toEqual([
      {
        field: 'spec.schema.properties.spec.properties.a.bogus',
        reason: 'FieldValueInvalid',
        message: 'unsupported keyword "bogus"',
      },
    ]);
  });

  it('accepts OpenAPI annotations, the known x-kubernetes extensions and other x- vendor extensions', () => {
    expect(() =>
      compileSchema(
        spec({
          a: { type: 'string', description: 'd', example: 'e', default: 'f', deprecated: false, 'x-ui-widget': 'text' },
          b: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
          c: {
            type: 'object',
            'x-kubernetes-map-type': 'granular',
            'x-kubernetes-embedded-resource': true,
            'x-kubernetes-preserve-unknown-fields': true,
          },
        }),
      ),
    ).not.toThrow();
  });

  it('accepts a schema without a top-level type as an object schema', () => {
    expect(compileSchema({ properties: { spec: { type: 'object' } } }).schema.type).toBe('object');
  });

  it('does not change the schema it is given', () => {
    const schema = spec({ a: { type: 'number', minimum: 1, exclusiveMinimum: true } });
    const before = JSON.stringify(schema);
    compileSchema(schema);
    expect(JSON.stringify(schema)).toBe(before);
  });

  it('declares apiVersion, kind and metadata over what the model says of them', () => {
    const compiled = compileSchema({ type: 'object', properties: { metadata: { type: 'string' } } });
    expect(compiled.schema.properties?.metadata).toMatchObject({
      type: 'object',
      properties: { name: { 'x-kubernetes-preserve-unknown-fields': true } },
    });
    expect(compiled.validate({ apiVersion: 'v1', kind: 'K', metadata: { name: 'x' } })).toEqual([]);
  });

  it('prunes, then validates what is left', () => {
    const compiled = compileSchema({
      type: 'object',
      required: ['spec'],
      properties: { spec: { type: 'object', properties: { age: { type: 'integer', maximum: 1 } } } },
    });
    expect(compiled.pruneAndValidate({ spec: { age: 2, junk: 1 } })).toEqual({
      object: { spec: { age: 2 } },
      unknownFields: ['spec.junk'],
      causes: [expect.objectContaining({ field: 'spec.age' })],
    });
  });
});
