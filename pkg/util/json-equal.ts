import { hasOwn } from './own';

/** A member's value if it is an own property (so a body's `__proto__` key is read as data), else undefined. */
const member = (object: object, key: string): unknown =>
  hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;

/** The keys of an object's members that JSON would write (undefined ones are dropped). */
const definedKeys = (object: object): string[] => Object.keys(object).filter((k) => member(object, k) !== undefined);

/**
 * Whether two JSON values are equal (RFC 6902 §4.6): same primitives, arrays
 * equal item by item, objects with the same members in any order. A member
 * whose value is undefined counts as absent, as JSON writes it. Unlike
 * `util.isDeepStrictEqual` it ignores prototypes, which differ between
 * realms (objects from `structuredClone` vs. a jest test's own literals).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (!isObject(a) || !isObject(b)) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) return arraysEqual(a, b);
  const keys = definedKeys(a);
  return keys.length === definedKeys(b).length && keys.every((k) => jsonEqual(member(a, k), member(b, k)));
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** Two arrays of equal items in the same order (false when only one is an array). */
const arraysEqual = (a: object, b: object): boolean =>
  Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
