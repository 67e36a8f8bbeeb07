import { randomUUID, randomInt } from 'node:crypto';
import type { ApiObject } from '../api/object';
import { GENERATE_NAME_PREFIX_KEPT, GENERATED_SUFFIX_LENGTH } from '../api/validation/name';
import { jsonEqual } from '../util/json-equal';

/**
 * Object bookkeeping shared by every backend, so that both stamp server-owned
 * fields the same way.
 */

/** Deep copy of a JSON object. */
export const clone = <T>(value: T): T => structuredClone(value);

/** Now, as stored timestamps are written: RFC 3339 UTC with milliseconds. */
export const timestamp = (date = new Date()): string => date.toISOString();

// Kubernetes' alphabet for generated names: no vowels (no words), no look-alikes.
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * `generateName` plus five random characters, e.g. `person-` → `person-x7k2q`. As in Kubernetes, a
 * prefix longer than 58 characters is cut to its first 58, so that a generated name is at most 63.
 */
export function generateName(prefix: string): string {
  let suffix = '';
  for (let i = 0; i < GENERATED_SUFFIX_LENGTH; i++) suffix += NAME_ALPHABET[randomInt(NAME_ALPHABET.length)];
  return prefix.slice(0, GENERATE_NAME_PREFIX_KEPT) + suffix;
}

/**
 * The object as `create` stores it: server-owned fields replaced, version 1,
 * generation 1. `name` must already be resolved (generateName applied).
 */
export function stampCreate(object: ApiObject, name: string, revision: string): ApiObject {
  const out = clone(object);
  const meta = { ...out.metadata, name };
  delete meta.deletionTimestamp;
  meta.uid = randomUUID();
  meta.creationTimestamp = timestamp();
  meta.generation = 1;
  meta.version = 1;
  meta.resourceVersion = revision;
  out.metadata = meta;
  return out;
}

/** Everything but `metadata` and `status`: what `generation` counts changes of. */
function specPart(object: ApiObject): Record<string, unknown> {
  const { metadata: _m, status: _s, ...rest } = object;
  return rest;
}

/**
 * The object as `update` stores it: the mutation's result with the current
 * object's server-owned fields, `version` +1, `generation` +1 when something
 * outside `metadata`/`status` changed, and `deletionTimestamp` kept (or set,
 * when the mutation sets it on an object that has none).
 * Returns `undefined` when the result equals the current object: nothing to write.
 */
export function stampUpdate(current: ApiObject, next: ApiObject, revision: string): ApiObject | undefined {
  const cur = current.metadata;
  const meta = { ...next.metadata, name: cur.name, uid: cur.uid, creationTimestamp: cur.creationTimestamp };
  meta.generation = cur.generation;
  meta.version = cur.version;
  meta.resourceVersion = cur.resourceVersion;
  const deletion = cur.deletionTimestamp ?? next.metadata.deletionTimestamp;
  if (deletion === undefined) delete meta.deletionTimestamp;
  else meta.deletionTimestamp = deletion;
  const candidate: ApiObject = { ...next, metadata: meta };
  if (jsonEqual(candidate, current)) return undefined;
  meta.version = (cur.version ?? 0) + 1;
  meta.resourceVersion = revision;
  if (!jsonEqual(specPart(next), specPart(current))) {
    meta.generation = (cur.generation ?? 0) + 1;
  }
  return candidate;
}
