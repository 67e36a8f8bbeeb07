import type { ApiObject } from '../api/object';
import { addFinalizer, hasFinalizer, removeFinalizer } from './finalizers';
import { deepFreeze } from '../util/deep-freeze';

const cached = (finalizers?: string[]) =>
  deepFreeze<ApiObject>({
    apiVersion: 'v1alpha1',
    kind: 'Thing',
    metadata: { name: 'a', finalizers },
    spec: { size: 1 },
  });

describe('finalizer helpers', () => {
  it('adds a finalizer on a copy, leaving the (frozen) cached object alone', () => {
    const original = cached(['other']);
    const { changed, object } = addFinalizer(original, 'example.com/cleanup');
    expect(changed).toBe(true);
    expect(object.metadata.finalizers).toEqual(['other', 'example.com/cleanup']);
    expect(original.metadata.finalizers).toEqual(['other']);
    expect(Object.isFrozen(object)).toBe(false);
  });

  it('reports no change when adding a finalizer that is there, or removing one that is not', () => {
    expect(addFinalizer(cached(['x']), 'x')).toMatchObject({
      changed: false,
      object: { metadata: { finalizers: ['x'] } },
    });
    expect(removeFinalizer(cached(['x']), 'y')).toMatchObject({
      changed: false,
      object: { metadata: { finalizers: ['x'] } },
    });
    expect(removeFinalizer(cached(), 'y').changed).toBe(false);
  });

  it('adds to an object without finalizers', () => {
    expect(addFinalizer(cached(), 'x')).toMatchObject({ changed: true, object: { metadata: { finalizers: ['x'] } } });
  });

  it('removes every occurrence of a finalizer on a copy', () => {
    const original = cached(['x', 'keep', 'x']);
    const { changed, object } = removeFinalizer(original, 'x');
    expect(changed).toBe(true);
    expect(object.metadata.finalizers).toEqual(['keep']);
    expect(original.metadata.finalizers).toEqual(['x', 'keep', 'x']);
  });

  it('tells whether an object has a finalizer', () => {
    expect(hasFinalizer(cached(['x']), 'x')).toBe(true);
    expect(hasFinalizer(cached(['x']), 'y')).toBe(false);
    expect(hasFinalizer(cached(), 'x')).toBe(false);
  });
});
