import type { ApiObject } from '../api/object';
import { ObjectStore } from './object-store';

const thing = (name: string, resourceVersion: string): ApiObject => ({
  apiVersion: 'test.example/v1',
  kind: 'Thing',
  metadata: { name, resourceVersion },
});

describe('ObjectStore', () => {
  it('reports an add, then an update only when the resourceVersion moves', () => {
    const store = new ObjectStore<ApiObject>();
    expect(store.put(thing('a', '1'))).toMatchObject({ type: 'added', name: 'a' });
    expect(store.put(thing('a', '1'))).toBeUndefined();
    const update = store.put(thing('a', '2'));
    expect(update).toMatchObject({ type: 'updated', previous: { metadata: { resourceVersion: '1' } } });
  });

  it('reports a delete with the final state given, and nothing for an object it never held', () => {
    const store = new ObjectStore<ApiObject>();
    store.put(thing('a', '1'));
    expect(store.delete(thing('ghost', '2'))).toBeUndefined();
    expect(store.delete(thing('a', '3'))).toMatchObject({
      type: 'deleted',
      previous: { metadata: { resourceVersion: '1' } },
      last: { metadata: { resourceVersion: '3' } },
    });
    expect(store.size()).toBe(0);
  });

  it('replaces its contents with a list, reporting adds, updates and deletes (with the held state)', () => {
    const store = new ObjectStore<ApiObject>();
    store.put(thing('keep', '1'));
    store.put(thing('change', '1'));
    store.put(thing('remove', '1'));
    const changes = store.replace([thing('keep', '1'), thing('change', '2'), thing('new', '3')]);
    expect(changes.map((c) => `${c.type} ${c.name}`)).toEqual(['updated change', 'added new', 'deleted remove']);
    expect([...store.values()].map((o) => o.metadata.name).sort()).toEqual(['change', 'keep', 'new']);
  });

  it('holds what keep makes of each object', () => {
    const store = new ObjectStore<ApiObject>((o) => Object.freeze({ ...o }));
    store.put(thing('a', '1'));
    expect(Object.isFrozen(store.get('a'))).toBe(true);
  });
});
