import type { ApiObject } from '../api/object';
import { copyOf, type DeepReadonly } from '../util/deep-freeze';

/**
 * Finalizer helpers (controller-runtime's controllerutil). Each works on a
 * copy, never on the object given (which may be a frozen cache entry), and
 * reports whether the copy differs: write it back only when `changed`.
 * @example
 * const { changed, object } = addFinalizer(persons.get(name)!, 'example.com/cleanup');
 * if (changed) await client.update(PERSONS, object);
 */

/** What a finalizer helper did: the (copied) object, and whether it differs from the one given. */
export interface FinalizerChange<T extends ApiObject> {
  changed: boolean;
  object: T;
}

/** Whether the object carries the finalizer. */
export function hasFinalizer(object: DeepReadonly<ApiObject> | ApiObject, finalizer: string): boolean {
  return (object.metadata.finalizers ?? []).includes(finalizer);
}

/** A copy with the finalizer appended, unless it was there already (then `changed` is false). */
export function addFinalizer<T extends ApiObject>(object: DeepReadonly<T> | T, finalizer: string): FinalizerChange<T> {
  const copy = copyOf<T>(object);
  if (hasFinalizer(copy, finalizer)) return { changed: false, object: copy };
  copy.metadata.finalizers = [...(copy.metadata.finalizers ?? []), finalizer];
  return { changed: true, object: copy };
}

/** A copy without the finalizer (every occurrence); `changed` is false when it was absent. */
export function removeFinalizer<T extends ApiObject>(
  object: DeepReadonly<T> | T,
  finalizer: string,
): FinalizerChange<T> {
  const copy = copyOf<T>(object);
  if (!hasFinalizer(copy, finalizer)) return { changed: false, object: copy };
  copy.metadata.finalizers = (copy.metadata.finalizers ?? []).filter((f) => f !== finalizer);
  return { changed: true, object: copy };
}
