import type { ApiObject } from '../../pkg/api/object';
import type { DeepReadonly, Predicate } from '../../pkg/controller';

/**
 * Whether the gc controller may remove an object now (docs/api.md): it is
 * marked for deletion (`metadata.deletionTimestamp` set) and no finalizer
 * holds it back any more.
 * @example isCollectable({ ...person, metadata: { name: 'ada', deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: [] } }) // true
 */
export function isCollectable(object: DeepReadonly<ApiObject>): boolean {
  return object.metadata.deletionTimestamp !== undefined && (object.metadata.finalizers?.length ?? 0) === 0;
}

/** Lets through only objects that still carry finalizers no more: the event that removes the last one enqueues the key. */
export const withoutFinalizers: Predicate = (event) => (event.object.metadata.finalizers?.length ?? 0) === 0;

/** Skips the removal of an object: once it is gone there is nothing left to collect. */
export const notARemoval: Predicate = (event) => event.type !== 'delete';
