import { hasOwn, setOwn } from '../../util/own';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

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
  if (!isObject(patch)) return patch;
  const out = isObject(target) ? target : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else setOwn(out, key, mergeInto(hasOwn(out, key) ? out[key] : undefined, value));
  }
  return out;
}
