/** An object that may not be changed, down to its leaves: what caches and watch events hand out. */
export type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/**
 * Freezes a JSON value and everything it holds, in place, and returns it typed
 * as read-only. Parts that are already frozen are taken as frozen all the way
 * down (callers only ever freeze whole trees), so freezing a new object that
 * reuses frozen parts of an old one costs only its new parts.
 */
export function deepFreeze<T>(value: T): DeepReadonly<T> {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value as DeepReadonly<T>;
}

/** A deep, mutable copy of a (cached, frozen) object: the one to change and send. */
export function copyOf<T>(value: DeepReadonly<T> | T): T {
  return structuredClone(value) as T;
}
