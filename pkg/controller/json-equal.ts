/**
 * Whether two JSON values are equal: same primitives, arrays equal item by
 * item, objects with the same keys (in any order) and equal values. Unlike
 * `util.isDeepStrictEqual` it ignores prototypes, which differ between
 * realms (objects from `structuredClone` vs. a jest test's own literals).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  }
  const aKeys = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const bKeys = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return aKeys.length === bKeys.length
    && aKeys.every((k) => jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
