/**
 * Own-property access for objects built from request bodies. A body may carry a
 * key such as `__proto__`; plain `obj[key]` reads would then see
 * `Object.prototype` and plain writes would replace the prototype.
 */

/** Whether `key` is an own property of `object`. */
export const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/** Defines `key` as an ordinary own data property, even when it is `__proto__`. */
export function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}
