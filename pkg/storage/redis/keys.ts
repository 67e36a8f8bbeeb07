import { CREATION_INDEX, NAME_INDEX, type IndexSpec } from '../indexes';
import type { ResourceType } from '../interface';

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
 * - `<prefix>:{<type>}:ix:<index>` sorted set, every score 0, members
 *   `<value>\0<name>`; an object without a value has the member `\xff\0<name>`,
 *   which sorts after every UTF-8 value.
 * - `<prefix>:{<type>}:ixs:<index>\0<value>` sorted set, every score 0: the
 *   objects holding one value of an index with value sets (see `hasValueSets`),
 *   as members that sort in the default list order (see `order_member` in
 *   scripts/lua-helpers.ts), so that a page of one equality is a range of it.
 * - `<prefix>:{<type>}:ixsets` hash: index name → `filling`, then `ready` once
 *   every object is in that index's value sets (until then lists use the
 *   index's sorted set); absent for an index without value sets.
 *
 * @example typeKeys('svc', 'persons.example.com').objects // 'svc:{persons.example.com}:objects'
 */
export interface TypeKeys {
  objects: string;
  indexValues: string;
  revision: string;
  stream: string;
  indexStates: string;
  /** The sorted set of one index. */
  index(name: string): string;
  /** What the key of one value set starts with; the scripts append `<index>\0<value>`. */
  valueSetPrefix: string;
  /** The value set of one value of an index. */
  valueSet(index: string, value: string): string;
  valueSetStates: string;
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
    index: (name) => `${base}:ix:${name}`,
    valueSetPrefix: `${base}:ixs:`,
    valueSet: (index, value) => `${base}:ixs:${index}\0${value}`,
    valueSetStates: `${base}:ixsets`,
  };
}

/**
 * Whether an index keeps a value set per value (ADR 0010): one that asks for
 * them (`IndexSpec.valueSets`: the labels index, and the indexes that opt in),
 * unless it is unique (one object per value: collecting it is as cheap) or the
 * creation index (its values are the default order itself).
 */
export const hasValueSets = (spec: IndexSpec): boolean =>
  spec.valueSets === true && !spec.unique && spec.name !== CREATION_INDEX;

/**
 * The indexes as the write scripts take them (as JSON): `[name, unique, value
 * sets]`, each flag 1 or 0; names are unique by existence, not by index.
 */
export const scriptIndexList = (specs: readonly IndexSpec[]): [string, number, number][] =>
  specs.map((s) => [s.name, s.unique && s.name !== NAME_INDEX ? 1 : 0, hasValueSets(s) ? 1 : 0]);
