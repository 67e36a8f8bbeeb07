import { NAME_INDEX, isOrdered, type IndexSpec } from '../indexes';
import type { ResourceType } from '../interface';
import { isPairIndex } from '../pair-indexes';

/**
 * The Redis keys of one resource type. Every key carries the same hash tag,
 * `{<type>}`, so that every multi-key script touches a single Cluster slot:
 *
 * - `<prefix>:{<type>}:objects` hash: name → the object's JSON.
 * - `<prefix>:{<type>}:ixv` hash: name → `<revision>\n<JSON of index name → values>`,
 *   the index values the object is stored under, so that a write removes exactly
 *   the old entries, and the revision of its last write (what compare-and-swap checks).
 * - `<prefix>:{<type>}:rev` string: the type's revision counter.
 * - `<prefix>:{<type>}:stream` stream: one entry per write, id `<revision>-0`.
 * - `<prefix>:{<type>}:indexes` hash: index name → `ready` | `building`.
 * - `<prefix>:{<type>}:index:<index>` a bucketed set (ADR 0025,
 *   scripts/bucketed-sets.ts: a directory sorted set of bucket bounds, and a
 *   small sorted set per bucket, `<that key>\0<bound>`), members in byte order,
 *   `<value>\0<name>`; an object without a value has the member `\xff\0<name>`,
 *   which sorts after every UTF-8 value. In an ordered index (see `isOrdered`)
 *   the name is replaced by the object's order member (`orderMember`), so that
 *   the objects of one value sort in the default list order (ADR 0017).
 *   A pair index (`pair <F> by <S>`, ADR 0023) has no member for an object
 *   without a value.
 * - `<prefix>:{<type>}:ixsets` hash: index name → its layout, `bucketed` or
 *   `bucketed ordered`. Anything else is from before ADR 0025: the index is a
 *   plain sorted set under `<prefix>:{<type>}:ix:<index>` (`ordered` there:
 *   ordered members; `ready` or `filling`, from ADR 0010: besides it, per-value
 *   sorted sets under `<prefix>:{<type>}:ixs:<index>\0<value>`), which
 *   `defineType` deletes before building the index again.
 *
 * @example typeKeys('svc', 'persons.example.com').objects // 'svc:{persons.example.com}:objects'
 */
export interface TypeKeys {
  objects: string;
  indexValues: string;
  revision: string;
  stream: string;
  indexStates: string;
  /** The bucketed set of one index (its directory key). */
  index(name: string): string;
  /** What the keys of the plain sorted sets before ADR 0025 start with; only deleted now. */
  legacyIndexPrefix: string;
  /** What the keys of ADR 0010's per-value sets start with; only deleted now. */
  legacyValueSetPrefix: string;
  /** Index name → its layout: `bucketed` or `bucketed ordered` (else from before ADR 0025). */
  layouts: string;
}

/** The keys of `type` under `prefix`. */
export function typeKeys(prefix: string, type: ResourceType): TypeKeys {
  const base = `${prefix}:{${type}}`;
  return {
    objects: `${base}:objects`,
    indexValues: `${base}:ixv`,
    revision: `${base}:rev`,
    stream: `${base}:stream`,
    indexStates: `${base}:indexes`,
    index: (name) => `${base}:index:${name}`,
    legacyIndexPrefix: `${base}:ix:`,
    legacyValueSetPrefix: `${base}:ixs:`,
    layouts: `${base}:ixsets`,
  };
}

/** Whether an index is ordered (ADR 0017): its members end with the object's order member, not its name. */
export { isOrdered };

/**
 * The indexes as the write scripts take them (as JSON): `[name, unique,
 * ordered, sparse]`, each flag 1 or 0; names are unique by existence, not by
 * index; a sparse index (a pair index) has no member for an object without a value.
 */
export const scriptIndexList = (specs: readonly IndexSpec[]): [string, number, number, number][] =>
  specs.map((s) => [s.name, s.unique && s.name !== NAME_INDEX ? 1 : 0, isOrdered(s) ? 1 : 0, isPairIndex(s) ? 1 : 0]);

const HIGH = 0xff;

/**
 * An object's order member, the bytes `order_member` in scripts/lua-helpers.ts
 * computes: the creation timestamp with every byte complemented, `\xff`, the
 * name; without a timestamp `\xff\xff` and the name. Byte-wise they sort
 * newest first, then by name.
 */
export function orderMember(created: string | undefined, name: string): Buffer {
  const tail = Buffer.from(name, 'utf8');
  if (created === undefined) return Buffer.concat([Buffer.from([HIGH, HIGH]), tail]);
  const head = Buffer.from(created, 'utf8').map((b) => HIGH - b);
  return Buffer.concat([head, Buffer.from([HIGH]), tail]);
}
