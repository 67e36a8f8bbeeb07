import type { ApiObject } from '../../pkg/api/object';
import { deepFreeze, type ObjectEvent } from '../../pkg/controller';
import { isCollectable, notARemoval, withoutFinalizers } from './collectable';

const object = (metadata: ApiObject['metadata']) =>
  deepFreeze<ApiObject>({ apiVersion: 'example.com/v1', kind: 'Thing', metadata });
const MARKED = '2026-11-22T02:28:01.123Z';

describe('isCollectable', () => {
  it.each([
    ['marked, no finalizers field', { name: 'a', deletionTimestamp: MARKED }, true],
    ['marked, empty finalizers', { name: 'a', deletionTimestamp: MARKED, finalizers: [] }, true],
    ['marked, a finalizer left', { name: 'a', deletionTimestamp: MARKED, finalizers: ['example.com/x'] }, false],
    ['not marked', { name: 'a' }, false],
    ['not marked, no finalizers', { name: 'a', finalizers: [] }, false],
  ])('%s → %s', (_what, metadata, expected) => {
    expect(isCollectable(object(metadata))).toBe(expected);
  });
});

describe('the gc predicates', () => {
  const held = object({ name: 'a', deletionTimestamp: MARKED, finalizers: ['example.com/x'] });
  const free = object({ name: 'a', deletionTimestamp: MARKED, finalizers: [] });

  it('withoutFinalizers lets through the update that removes the last finalizer, not the one before', () => {
    expect(withoutFinalizers({ type: 'update', old: held, object: free })).toBe(true);
    expect(withoutFinalizers({ type: 'update', old: free, object: held })).toBe(false);
  });

  it('notARemoval skips the event of a removal and nothing else', () => {
    const events: ObjectEvent[] = [
      { type: 'add', object: free },
      { type: 'update', old: held, object: free },
      { type: 'delete', object: free },
    ];
    expect(events.map(notARemoval)).toEqual([true, true, false]);
  });
});
