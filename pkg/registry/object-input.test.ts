import { objectFromBody, withoutServerFields } from './object-input';
import type { Model } from './model';

describe('withoutServerFields', () => {
  it('drops what only the server sets and the namespace of a cluster-scoped object, and keeps the rest', () => {
    const meta = {
      name: 'ada',
      namespace: 'default',
      uid: 'u-1',
      resourceVersion: '7',
      version: 3,
      generation: 2,
      creationTimestamp: '2026-11-27T08:00:00.000Z',
      deletionTimestamp: '2026-11-27T08:01:00.000Z',
      labels: { team: 'engines' },
      annotations: { note: 'x' },
      finalizers: ['example.com/hold'],
    };
    expect(withoutServerFields(meta)).toEqual({
      name: 'ada',
      labels: { team: 'engines' },
      annotations: { note: 'x' },
      finalizers: ['example.com/hold'],
    });
    expect(meta.namespace).toBe('default');
  });
});

describe('objectFromBody', () => {
  const model = { group: 'example.com', version: 'v1alpha1', kind: 'Person', plural: 'persons' } as Model;

  it('reads metadata fields sent as null as absent, as Kubernetes decodes them', () => {
    const body = { metadata: { name: 'ada', labels: null, annotations: null, finalizers: null }, spec: {} };
    expect(objectFromBody(model, body).metadata).toEqual({ name: 'ada' });
  });
});
