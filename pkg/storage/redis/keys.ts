import { NAME_INDEX, isOrdered, type IndexSpec } from '../indexes';
import type { ResourceType } from '../interface';
import { isPairIndex } from '../pair-indexes';

/**
 * The Redis keys of one resource type. Every key carries the same hash tag,
 * `{<type>}`, so that every multi-key script touches a single Cluster slot:
 *
 * - `<prefix>:{<type>}:objects` hash: name → the object's JSON.
 * - `<prefix>:{<type>}:ixv` hash: name → `<revision>\n<JSON of index name → values>`
 *   (default indexes under short keys, the name index left out: `storedIndexValues`
 *   in ./object-codec.ts), the index values the object is stored under, so that a write removes exactly
 *   the old entries, and the revision of its last write (what compare-and-swap checks).
 * - `<prefix>:{<type>}:rev` string: the type's revision counter.
 * - `<prefix>:{<type>}:stream` stream: one entry per write, id `<revision>-0`.
 * - `<prefix>:{<type>}:indexes` hash: index name → `ready` | `building`.
 * - the set of each index, members in byte order (scripts/index-sets-*.lua), in
 *   the store's index layout (ADR 0025): `plain`, the sorted set
 *   `<prefix>:{<type>}:ix:<index>`, or `bucketed`, under
 *   `<prefix>:{<type>}:index:<index>` a directory sorted set of bucket bounds
 *   and beside it a small sorted set per bucket, `<that key>\0<bound>`.
 *   Members are `<value>\0<name>`; an object without a value has the member `\xff\0<name>`,
 *   which sorts after every UTF-8 value. In an ordered index (see `isOrdered`)
 *   the name is replaced by the object's order member (`orderMember`), so that
 *   the objects of one value sort in the default list order (ADR 0017).
 *   A pair index (`pair <F> by <S>`, ADR 0023) has no member for an object
 *   without a value.
 * - `<prefix>:{<type>}:dict` string: the dictionary of compressed objects
 *   (ADR 0026: the JSON of the type's first object; ./stored-objects.ts).
 * - `<prefix>:{<type>}:ixsets` hash: index name → its layout when it is not
 *   plain and unordered: `ordered`, `bucketed`, `bucketed ordered`. (`ready` or
 *   `filling` there, from ADR 0010, means plain members with per-value sorted
 *   sets beside them under `<prefix>:{<type>}:ixs:<index>\0<value>`, which
 *   `defineType` deletes.)
 *
 * @example typeKeys('svc', 'persons.example.com').objects // 'svc:{persons.example.com}:objects'
 */
export interface TypeKeys {
  objects: string;
  indexValues: string;
  revision: string;
  stream: string;
  indexStates: string;
  /** The set of one index, in the store's layout (in the bucketed layout, its directory key). */
  index(name: string): string;
  /** What the keys of index sets in each layout start with (for `defineType`, which deletes either). */
  indexPrefixes: Record<IndexLayout, string>;
  /** What the keys of ADR 0010's per-value sets start with; only deleted now. */
  legacyValueSetPrefix: string;
  /** The dictionary compressed objects are deflated with (ADR 0026), a string. */
  dictionary: string;
  /** Index name → its layout, when not plain and unordered. */
  layouts: string;
}

/** How a store keeps its index sets (ADR 0025): one sorted set each, or small listpack buckets under a directory. */
export type IndexLayout = 'plain' | 'bucketed';

/** The keys of `type` under `prefix`, its indexes in `layout`. */
export function typeKeys(prefix: string, type: ResourceType, layout: IndexLayout = 'plain'): TypeKeys {
  const base = `${prefix}:{${type}}`;
  const indexPrefixes = { plain: `${base}:ix:`, bucketed: `${base}:index:` };
  return {
    objects: `${base}:objects`,
    indexValues: `${base}:ixv`,
    revision: `${base}:rev`,
    stream: `${base}:stream`,
    indexStates: `${base}:indexes`,
    index: (name) => `${indexPrefixes[layout]}${name}`,
    indexPrefixes,
    legacyValueSetPrefix: `${base}:ixs:`,
    layouts: `${base}:ixsets`,
    dictionary: `${base}:dict`,
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
 * An object's order member, the bytes `order_member` in scripts/helpers.lua
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
