import { compileSchema } from './compile';
import type { OpenApiSchema } from './openapi-schema';

const specSchema = (spec: OpenApiSchema) => compileSchema({ type: 'object', properties: { spec } });

describe('pruning unknown fields', () => {
  it('removes undeclared fields at every depth, including inside array elements', () => {
    const schema = specSchema({
      type: 'object',
      properties: { items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } } },
    });
    const { object, unknownFields } = schema.prune({
      spec: { items: [{ id: 'a', bar: 1 }, { id: 'b' }], foo: { x: 1 } },
      extra: 1,
    });
    expect(object).toEqual({ spec: { items: [{ id: 'a' }, { id: 'b' }] } });
    expect(unknownFields).toEqual(['spec.items[0].bar', 'spec.foo', 'extra']);
  });

  it('keeps everything under x-kubernetes-preserve-unknown-fields but still prunes declared fields there', () => {
    const schema = specSchema({
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: { known: { type: 'object', properties: { a: { type: 'string' } } } },
    });
    const { object, unknownFields } = schema.prune({
      spec: { free: { deep: [1, { x: 2 }] }, known: { a: 'y', b: 'z' } },
    });
    expect(object).toEqual({ spec: { free: { deep: [1, { x: 2 }] }, known: { a: 'y' } } });
    expect(unknownFields).toEqual(['spec.known.b']);
  });

  it('prunes the entries of a map against its additionalProperties schema', () => {
    const schema = specSchema({
      type: 'object',
      properties: {
        byName: { type: 'object', additionalProperties: { type: 'object', properties: { n: { type: 'integer' } } } },
      },
    });
    const { object, unknownFields } = schema.prune({ spec: { byName: { a: { n: 1, junk: 2 }, b: { n: 2 } } } });
    expect(object).toEqual({ spec: { byName: { a: { n: 1 }, b: { n: 2 } } } });
    expect(unknownFields).toEqual(['spec.byName.a.junk']);
  });

  it('keeps every entry under additionalProperties: true', () => {
    const schema = specSchema({ type: 'object', properties: { free: { type: 'object', additionalProperties: true } } });
    expect(schema.prune({ spec: { free: { a: { b: 1 } } } }).unknownFields).toEqual([]);
  });

  it('counts fields declared in allOf, anyOf and oneOf branches as declared', () => {
    const schema = specSchema({
      type: 'object',
      allOf: [{ properties: { a: { type: 'string' } } }],
      anyOf: [{ properties: { b: { type: 'string' } } }],
      oneOf: [{ properties: { c: { type: 'string' } } }],
    });
    expect(schema.prune({ spec: { a: '1', b: '2', c: '3', d: '4' } }).unknownFields).toEqual(['spec.d']);
  });

  it('keeps apiVersion, kind and metadata of an embedded resource', () => {
    const schema = specSchema({
      type: 'object',
      properties: {
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } },
      },
    });
    const template = { apiVersion: 'v1', kind: 'K', metadata: { name: 'n' }, spec: {}, other: 1 };
    const { object, unknownFields } = schema.prune({ spec: { template } });
    expect(object).toEqual({ spec: { template: { apiVersion: 'v1', kind: 'K', metadata: { name: 'n' }, spec: {} } } });
    expect(unknownFields).toEqual(['spec.template.other']);
  });

  it("keeps Kubernetes' ObjectMeta fields of the top-level metadata as given, and prunes any other", () => {
    const schema = specSchema({ type: 'object' });
    const known = {
      name: 'a',
      generateName: 'a-',
      namespace: 'default',
      uid: 'u',
      resourceVersion: '1',
      version: 1,
      generation: 1,
      creationTimestamp: 't',
      deletionTimestamp: 't',
      deletionGracePeriodSeconds: 0,
      labels: { x: 'y' },
      annotations: { anything: 'goes', nested: { kept: true } },
      ownerReferences: [{ kind: 'K', name: 'o', extra: 1 }],
      finalizers: ['f'],
      managedFields: [{ manager: 'm' }],
      selfLink: '/x',
    };
    const metadata = { ...known, whatever: { nested: true }, foo: 1 };
    expect(schema.prune({ metadata, spec: {} })).toEqual({
      object: { metadata: known, spec: {} },
      unknownFields: ['metadata.whatever', 'metadata.foo'],
    });
  });

  it('prunes the metadata of an embedded resource and of a nested whole object ($ref: "#") the same way', () => {
    const schema = specSchema({
      type: 'object',
      properties: {
        template: {
          type: 'object',
          'x-kubernetes-embedded-resource': true,
          'x-kubernetes-preserve-unknown-fields': true,
        },
        same: { $ref: '#' },
      },
    });
    const metadata = () => ({ name: 'n', labels: { a: 'b' }, foo: 1 });
    const { object, unknownFields } = schema.prune({
      spec: { template: { metadata: metadata(), x: 1 }, same: { metadata: metadata() } },
    });
    expect(object).toEqual({
      spec: {
        template: { metadata: { name: 'n', labels: { a: 'b' } }, x: 1 },
        same: { metadata: { name: 'n', labels: { a: 'b' } } },
      },
    });
    expect(unknownFields).toEqual(['spec.template.metadata.foo', 'spec.same.metadata.foo']);
  });

  it('leaves values of the wrong type for validation to report', () => {
    const schema = specSchema({ type: 'object', properties: { a: { type: 'object', properties: {} } } });
    expect(schema.prune({ spec: { a: 'text' } })).toEqual({ object: { spec: { a: 'text' } }, unknownFields: [] });
  });

  it('returns a copy and leaves the input unchanged', () => {
    const schema = specSchema({
      type: 'object',
      properties: { keep: { type: 'object', properties: { a: { type: 'string' } } } },
    });
    const input = { spec: { keep: { a: 'x' }, drop: 1 } };
    const { object } = schema.prune(input);
    expect(input).toEqual({ spec: { keep: { a: 'x' }, drop: 1 } });
    (object.spec.keep as { a: string }).a = 'changed';
    expect(input.spec.keep.a).toBe('x');
  });

  it('treats a __proto__ key as an ordinary unknown field', () => {
    const schema = specSchema({ type: 'object', properties: { a: { type: 'string' } } });
    const input = JSON.parse('{"spec": {"a": "x", "__proto__": {"polluted": true}}}') as { spec: object };
    const { object, unknownFields } = schema.prune(input);
    expect(unknownFields).toEqual(['spec.__proto__']);
    expect(Object.keys(object.spec)).toEqual(['a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
