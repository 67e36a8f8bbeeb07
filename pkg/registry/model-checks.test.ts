import { checksForModel } from './model-checks';
import type { Model } from './model';
import type { ApiObject } from '../api/object';

const model = (schema?: Model['schema']): Model => ({
  group: 'example.com',
  version: 'v1',
  kind: 'Thing',
  singular: 'thing',
  plural: 'things',
  schema,
});

describe('checksForModel', () => {
  it('prunes unknown metadata fields of a model without a schema, and keeps everything else', () => {
    const object = {
      apiVersion: 'example.com/v1',
      kind: 'Thing',
      metadata: { name: 'a', labels: { x: 'y' }, foo: 1 },
      spec: { anything: { goes: true } },
      top: 1,
    };
    const checks = checksForModel(model());
    const { object: pruned, unknownFields } = checks.prune(object);
    expect(unknownFields).toEqual(['metadata.foo']);
    expect(pruned).toEqual({ ...object, metadata: { name: 'a', labels: { x: 'y' } } });
    expect(checks.validate(pruned)).toEqual([]);
  });

  it('prunes unknown metadata fields of a model whose schema keeps unknown fields at the top', () => {
    const checks = checksForModel(model({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }));
    const metadata = { name: 'a', foo: 1 } as ApiObject['metadata'];
    const { unknownFields } = checks.prune({ apiVersion: 'v', kind: 'Thing', metadata, b: 2 });
    expect(unknownFields).toEqual(['metadata.foo']);
  });
});
