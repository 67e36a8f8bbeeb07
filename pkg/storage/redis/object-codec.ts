import { randomBytes } from 'node:crypto';
import type { ApiObject } from '../../api/object';
import { CREATION_INDEX, DELETION_INDEX, LABELS_INDEX, NAME_INDEX, indexValues, type IndexSpec } from '../indexes';
import { indexValueOfStored, storedIndexValue } from './stored-values';

/**
 * An object serialised for a write script whose revision only the script
 * knows: the JSON is split around the value of `metadata.resourceVersion`,
 * and the script joins `head + revision + tail`. (Decoding and re-encoding in
 * Lua with cjson would turn `[]` into `{}`.)
 */
export interface SplitJson {
  head: string;
  tail: string;
}

/**
 * Serialises `object` with a placeholder resourceVersion and splits the JSON
 * around it. The placeholder is random per call, so no field of the object
 * can hold it.
 *
 * @example splitAtRevision(obj) // { head: '{"apiVersion":…,"resourceVersion":"', tail: '"},"spec":…}' }
 */
export function splitAtRevision(object: ApiObject): SplitJson {
  const placeholder = `svc-revision-${randomBytes(12).toString('hex')}`;
  const json = JSON.stringify({ ...object, metadata: { ...object.metadata, resourceVersion: placeholder } });
  const at = json.indexOf(placeholder);
  return { head: json.slice(0, at), tail: json.slice(at + placeholder.length) };
}

/** Index name → the object's sorted values for each index, as the scripts store them. */
export type IndexValuesByName = Record<string, string[]>;

/**
 * The object's values for every index, as stored (an index function that
 * throws fails the write): NUL and SOH escaped (./stored-values.ts).
 */
export function computeIndexValues(specs: readonly IndexSpec[], object: ApiObject): IndexValuesByName {
  const values: IndexValuesByName = {};
  for (const spec of specs) values[spec.name] = storableValues(spec, object);
  return values;
}

/** One index's values for an object, as stored. */
export const storableValues = (spec: IndexSpec, object: ApiObject): string[] =>
  indexValues(spec, object).map((v) => storedIndexValue(spec, v));

/**
 * The short keys the default indexes' values are stored under (every object
 * holds them), as `STORED_KEYS` in scripts/helpers.lua says too. The
 * name index's values are not stored at all: they are the object's name. A
 * custom index may not be named with a leading `~`.
 */
export const STORED_KEYS: Readonly<Record<string, string>> = {
  [LABELS_INDEX]: '~l',
  [CREATION_INDEX]: '~c',
  [DELETION_INDEX]: '~d',
};

/** What a write script stores as an object's index values: JSON under the short keys, without the name index. */
export function storedIndexValues(values: IndexValuesByName): string {
  const stored: IndexValuesByName = {};
  for (const [name, list] of Object.entries(values)) {
    if (name !== NAME_INDEX) stored[STORED_KEYS[name] ?? name] = list;
  }
  return JSON.stringify(stored);
}

const FULL_NAMES = new Map(Object.entries(STORED_KEYS).map(([name, key]) => [key, name]));

/**
 * Parses stored index values of the object `name` (as stored now, or with
 * full names and the name index, as before) into the values they stand for. Lua's cjson writes an empty
 * array as `{}`, so anything that is not an array of strings reads as no values.
 */
export function parseIndexValues(json: string, name: string): IndexValuesByName {
  const raw = JSON.parse(json) as Record<string, unknown>;
  const values: IndexValuesByName = { [NAME_INDEX]: [name] };
  for (const [key, list] of Object.entries(raw)) {
    const index = FULL_NAMES.get(key) ?? key;
    values[index] = Array.isArray(list)
      ? list.filter((v): v is string => typeof v === 'string').map((v) => indexValueOfStored(index, v))
      : [];
  }
  return values;
}

/** Parses a stored object and stamps the revision it is known at. */
export function parseObject(json: string, revision?: string): ApiObject {
  const object = JSON.parse(json) as ApiObject;
  if (revision !== undefined) object.metadata.resourceVersion = revision;
  return object;
}
