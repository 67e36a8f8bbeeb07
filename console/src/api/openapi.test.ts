import { describe, expect, it } from 'vitest';
import { getAt, pathText, setAt } from './json-path';
import { emptyValue, fieldKind, resolver, typedValue } from './openapi';

describe('fieldKind', () => {
  it.each([
    [{ type: 'string' }, 'text'],
    [{ type: 'integer' }, 'number'],
    [{ type: 'string', enum: ['MALE', 'FEMALE'] }, 'choice'],
    [{ type: 'boolean' }, 'choice'],
    [{ type: 'array', items: { type: 'string' } }, 'array'],
    [{ type: 'object', properties: { a: { type: 'string' } } }, 'object'],
    [{ type: 'object' }, 'other'],
  ])('edits %j with %s', (schema, kind) => {
    expect(fieldKind(schema)).toBe(kind);
  });
});

describe('resolver', () => {
  it('follows $ref and a single allOf to the named schema, and stops on a cycle', () => {
    const schemas = {
      Person: { type: 'object', properties: { spec: { type: 'object' } } },
      Loop: { $ref: '#/components/schemas/Loop' },
    };
    const resolve = resolver(schemas);
    expect(resolve({ $ref: '#/components/schemas/Person' })).toBe(schemas.Person);
    expect(resolve({ allOf: [{ $ref: '#/components/schemas/Person' }] })).toBe(schemas.Person);
    expect(resolve({ $ref: '#/components/schemas/Loop' })).toBe(schemas.Loop);
    expect(resolve({ type: 'string' })).toEqual({ type: 'string' });
  });
});

describe('typedValue and emptyValue', () => {
  it('types values as the schema says, and leaves empty ones out', () => {
    expect(typedValue({ type: 'integer' }, '-1')).toBe(-1);
    expect(typedValue({ type: 'boolean' }, 'true')).toBe(true);
    expect(typedValue({ type: 'string' }, '12')).toBe('12');
    expect(typedValue({ type: 'string' }, '')).toBeUndefined();
  });

  it('starts a new list item empty, as its type', () => {
    expect([{ type: 'string' }, { type: 'integer' }, { type: 'object', properties: {} }].map(emptyValue)).toEqual([
      '',
      0,
      {},
    ]);
  });
});

describe('json paths', () => {
  const object = { spec: { tags: ['a', 'b'], other: { spec: { name: 'x' } } } };

  it('names fields as the server does', () => {
    expect(pathText(['spec', 'tags', 1])).toBe('spec.tags[1]');
    expect(pathText(['spec', 'other', 'spec', 'name'])).toBe('spec.other.spec.name');
  });

  it('reads and writes without touching the original; undefined removes', () => {
    expect(getAt(object, ['spec', 'tags', 1])).toBe('b');
    expect(getAt(object, ['spec', 'missing', 'x'])).toBeUndefined();
    expect(setAt(object, ['spec', 'tags', 2], 'c')).toEqual({ spec: { ...object.spec, tags: ['a', 'b', 'c'] } });
    expect(setAt(object, ['spec', 'tags', 0], undefined)).toEqual({ spec: { ...object.spec, tags: ['b'] } });
    expect(setAt(object, ['spec', 'other'], undefined)).toEqual({ spec: { tags: ['a', 'b'] } });
    expect(setAt({}, ['spec', 'age'], 3)).toEqual({ spec: { age: 3 } });
    expect(object.spec.tags).toEqual(['a', 'b']);
  });
});
