import type { ApiObject } from '../api/object';
import type { DeepReadonly } from '../util/deep-freeze';

/**
 * What an informer tells its subscribers. Objects are the cache's, frozen.
 * `onUpdate` also fires on a periodic resync (then `old === object`), and on
 * a relist for every object whose `resourceVersion` changed meanwhile;
 * `onDelete` carries the object's last known state.
 */
export interface EventHandler<T extends ApiObject = ApiObject> {
  onAdd?(object: DeepReadonly<T>): void;
  onUpdate?(old: DeepReadonly<T>, object: DeepReadonly<T>): void;
  onDelete?(object: DeepReadonly<T>): void;
}

/** One informer event as a value, for predicates: `{type: 'update', old, object}`. */
export type ObjectEvent<T extends ApiObject = ApiObject> =
  | { type: 'add'; object: DeepReadonly<T> }
  | { type: 'update'; old: DeepReadonly<T>; object: DeepReadonly<T> }
  | { type: 'delete'; object: DeepReadonly<T> };

/** An EventHandler that funnels every event into one function: `onEvent((e) => …)`. */
export function onEvent<T extends ApiObject = ApiObject>(fn: (event: ObjectEvent<T>) => void): EventHandler<T> {
  return {
    onAdd: (object) => fn({ type: 'add', object }),
    onUpdate: (old, object) => fn({ type: 'update', old, object }),
    onDelete: (object) => fn({ type: 'delete', object }),
  };
}
