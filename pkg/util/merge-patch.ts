import { isPlainObject } from '../api/plain-object';
import { jsonEqual } from './json-equal';
import { hasOwn, setOwn } from './own';

/**
 * RFC 7386 JSON merge patch: members of `patch` replace those of `target`,
 * objects merge recursively, `null` removes a member, and anything that is not
 * an object (arrays included) replaces the target as a whole. Returns a new
 * value; neither argument is changed, and the result shares nothing with them.
 *
 * @example mergePatch({a: 'b', c: {d: 'e', f: 'g'}}, {a: 'z', c: {f: null}}) → {a: 'z', c: {d: 'e'}}
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  return mergeInto(structuredClone(target), structuredClone(patch));
}

/** The merge on values the caller owns: `target` is changed and returned (or replaced). */
function mergeInto(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const out = isPlainObject(target) ? target : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else setOwn(out, key, mergeInto(hasOwn(out, key) ? out[key] : undefined, value));
  }
  return out;
}

/**
 * The JSON merge patch that turns `from` into `to`: changed fields with their new value, removed ones as `null`,
 * objects compared field by field, arrays replaced whole. `{}` when equal.
 * @example mergePatchBetween({spec: {a: 1, b: 2}}, {spec: {a: 1, c: 3}}) // → {spec: {b: null, c: 3}}
 */
export function mergePatchBetween(from: Record<string, unknown>, to: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(from)) if (!hasOwn(to, key)) setOwn(patch, key, null);
  for (const [key, value] of Object.entries(to)) {
    const before = hasOwn(from, key) ? from[key] : undefined;
    if (isPlainObject(before) && isPlainObject(value)) {
      const inner = mergePatchBetween(before, value);
      if (Object.keys(inner).length) setOwn(patch, key, inner);
    } else if (!jsonEqual(before, value)) {
      setOwn(patch, key, value);
    }
  }
  return patch;
}
