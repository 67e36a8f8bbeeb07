import type { ListPosition } from '../continue-token';
import { compareBytes } from '../byte-order';
import type { IndexTable } from './index-table';
import type { NameFilter } from './name-filter';
import type { IndexEntry } from './sorted-entries';

/** A sort key with its index table resolved. */
export interface TableSortKey {
  table: IndexTable;
  direction: 'asc' | 'desc';
}

// Below this share of the type's objects, sorting the accepted names beats
// walking the first sort key's whole index.
const SELECTIVE_SHARE = 0.25;

/**
 * Puts the accepted objects in sort order (at least one key, in priority order, then
 * `metadata.name` ascending), at least the first `needed` of them; the result
 * may hold more. Objects without a value for a key sort after those with one,
 * in either direction; a multi-valued index sorts by the object's smallest
 * value ascending and its largest descending. With `after` (a continue
 * position), only the objects that sort strictly after it are ordered; the
 * object the position was taken from need not exist any more.
 *
 * A selective filter's names are sorted directly; otherwise the first key's
 * sorted entries are walked from the position on and the walk stops once
 * `needed` objects are found, so a page costs about a page, not the whole type.
 */
export function orderNames(
  filter: NameFilter,
  keys: readonly [TableSortKey, ...TableSortKey[]],
  needed: number,
  objectCount: number,
  after?: ListPosition,
): string[] {
  const isAfter = afterPosition(keys, after);
  if (filter.names !== undefined && filter.names.size <= objectCount * SELECTIVE_SHARE) {
    return [...filter.names].filter(isAfter).sort(compareBySortKeys(keys));
  }
  const accept = (name: string) => filter.has(name) && isAfter(name);
  const [first] = keys;
  const from = after?.s[0];
  return walkFirstKey(
    { entries: entriesFrom(first, from), valueless: () => first.table.namesWithoutValue() },
    keys,
    needed,
    accept,
  );
}

/**
 * Where a walk reads the first key's objects: its entries, in its direction
 * from where the walk starts, each entry's value being a value of the first
 * key; and, once those are done, the objects without a value (any order).
 */
export interface FirstKeyEntries {
  entries: Iterable<IndexEntry>;
  valueless: () => Iterable<string>;
}

/** Whether the object `name` sorts strictly after a continue position (every object, without one). */
export function afterPosition(
  keys: readonly TableSortKey[],
  after: ListPosition | undefined,
): (name: string) => boolean {
  return after === undefined ? () => true : (name) => comparePosition(keys, after, name) < 0;
}

/** A comparator of object names by sort keys, then name ascending. */
export function compareBySortKeys(keys: readonly TableSortKey[]): (a: string, b: string) => number {
  return (a, b) => {
    for (const key of keys) {
      const order = compareSortValues(key.direction, sortValue(key, a), sortValue(key, b));
      if (order !== 0) return order;
    }
    return compareBytes(a, b);
  };
}

/** Where an object sorts: its value for every key (`false` where it has none) and its name. */
export function positionOf(keys: readonly TableSortKey[], name: string): ListPosition {
  return { s: keys.map((key) => sortValue(key, name)), n: name };
}

/** Negative when `position` sorts before the object, positive after it, zero when it is the object's own. */
function comparePosition(keys: readonly TableSortKey[], position: ListPosition, name: string): number {
  for (let k = 0; k < keys.length; k++) {
    const order = compareSortValues(keys[k].direction, position.s[k], sortValue(keys[k], name));
    if (order !== 0) return order;
  }
  return compareBytes(position.n, name);
}

/** The value an object sorts by for one key: its smallest ascending, its largest descending; false when none. */
function sortValue({ table, direction }: TableSortKey, name: string): string | false {
  const values = table.valuesOf(name) ?? [];
  if (values.length === 0) return false;
  return direction === 'asc' ? values[0] : values[values.length - 1];
}

/** Orders two sort values in a key's direction, a missing value (`false`) last either way. */
function compareSortValues(direction: 'asc' | 'desc', a: string | false, b: string | false): number {
  if (a === false || b === false) return (a === false ? 1 : 0) - (b === false ? 1 : 0);
  return direction === 'asc' ? compareBytes(a, b) : compareBytes(b, a);
}

/**
 * Walks the first key's entries group by group (a group is one value) and
 * takes the objects `accept` takes, at least `needed` of them. An object is
 * taken where it sorts, at its smallest value going up and its largest going
 * down; its other entries are skipped. Within a group the entries come
 * name-ascending, or are sorted by the other keys. The objects without a
 * value come last.
 */
export function walkFirstKey(
  source: FirstKeyEntries,
  keys: readonly [TableSortKey, ...TableSortKey[]],
  needed: number,
  accept: (name: string) => boolean,
): string[] {
  const [first, ...rest] = keys;
  const { direction } = first;
  const byRest = compareBySortKeys(rest);
  const out: string[] = [];
  let group: string[] = [];
  let groupValue: string | undefined;
  const flush = () => {
    if (direction === 'desc') group.reverse();
    if (rest.length > 0) group.sort(byRest);
    for (const name of group) out.push(name);
    group = [];
  };
  for (const { value, name } of source.entries) {
    if (value !== groupValue) {
      flush();
      if (out.length >= needed) break;
      groupValue = value;
    }
    if (sortValue(first, name) === value && accept(name)) group.push(name);
  }
  flush();
  if (out.length < needed) {
    const valueless = [...source.valueless()].filter(accept).sort(byRest);
    for (const name of valueless) out.push(name);
  }
  return out;
}

/** The first key's entries in its direction from `from` (a continue position's first value; `false`: none left). */
function entriesFrom({ table, direction }: TableSortKey, from: string | false | undefined): Iterable<IndexEntry> {
  if (from === false) return [];
  if (direction === 'asc') return table.entries.ascendingFrom(from ?? '');
  return from === undefined ? table.entries.descending() : table.entries.descendingFrom(from);
}
