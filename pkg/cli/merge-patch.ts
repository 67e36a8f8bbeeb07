import { jsonEqual } from '../util/json-equal';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The JSON merge patch (RFC 7386) that turns `from` into `to`: changed fields with their new value,
 * removed ones as `null`, objects compared field by field, arrays replaced whole. `{}` when equal.
 * @example mergePatchBetween({spec: {a: 1, b: 2}}, {spec: {a: 1, c: 3}}) // → {spec: {b: null, c: 3}}
 */
export function mergePatchBetween(from: Json, to: Json): Json {
  const patch: Json = {};
  for (const key of Object.keys(from)) if (!(key in to)) patch[key] = null;
  for (const [key, value] of Object.entries(to)) {
    const before = from[key];
    if (isObject(before) && isObject(value)) {
      const inner = mergePatchBetween(before, value);
      if (Object.keys(inner).length) patch[key] = inner;
    } else if (!jsonEqual(before, value)) {
      patch[key] = value;
    }
  }
  return patch;
}

/** Applies a JSON merge patch (RFC 7386) to a copy of `target`. */
export function applyMergePatch(target: Json, patch: Json): Json {
  const out: Json = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (isObject(value)) out[key] = applyMergePatch(isObject(out[key]) ? out[key] : {}, value);
    else out[key] = value;
  }
  return out;
}
