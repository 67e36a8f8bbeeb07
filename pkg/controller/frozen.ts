/** An object that may not be changed, down to its leaves: what caches hand out. */
export type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;

/** Freezes an object and everything it holds, in place, and returns it typed as read-only. */
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
