import { compareBytes } from './byte-order';
import type { IndexTable } from './index-table';
import type { NameFilter } from './name-filter';

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
 * value ascending and its largest descending.
 *
 * A selective filter's names are sorted directly; otherwise the first key's
 * sorted entries are walked and the walk stops once `needed` objects are
 * found, so a first page costs about a page, not the whole type.
 */
export function orderNames(
  filter: NameFilter, keys: readonly [TableSortKey, ...TableSortKey[]], needed: number, objectCount: number,
): string[] {
  if (filter.names !== undefined && filter.names.size <= objectCount * SELECTIVE_SHARE) {
    return [...filter.names].sort(compareBySortKeys(keys));
  }
  return walkFirstKey(filter, keys, needed);
}

/** A comparator of object names by sort keys, then name ascending. */
export function compareBySortKeys(keys: readonly TableSortKey[]): (a: string, b: string) => number {
  return (a, b) => {
    for (const key of keys) {
      const order = compareByKey(key, a, b);
      if (order !== 0) return order;
    }
    return compareBytes(a, b);
  };
}

function compareByKey({ table, direction }: TableSortKey, a: string, b: string): number {
  const va = table.valuesOf(a) ?? [];
  const vb = table.valuesOf(b) ?? [];
  if (va.length === 0 || vb.length === 0) return (va.length === 0 ? 1 : 0) - (vb.length === 0 ? 1 : 0);
  return direction === 'asc' ? compareBytes(va[0], vb[0]) : compareBytes(vb[vb.length - 1], va[va.length - 1]);
}

/**
 * Walks the first key's entries group by group (a group is one value). An
 * object's first appearance is its smallest value going up and its largest
 * going down, which is where it sorts; later appearances are skipped. Within a
 * group the entries come name-ascending, or are sorted by the other keys.
 */
function walkFirstKey(
  filter: NameFilter, keys: readonly [TableSortKey, ...TableSortKey[]], needed: number,
): string[] {
  const [{ table, direction }, ...rest] = keys;
  const byRest = compareBySortKeys(rest);
  const seen = new Set<string>();
  const out: string[] = [];
  let group: string[] = [];
  let groupValue: string | undefined;
  const flush = () => {
    if (direction === 'desc') group.reverse();
    if (rest.length > 0) group.sort(byRest);
    for (const name of group) out.push(name);
    group = [];
  };
  for (const { value, name } of direction === 'asc' ? table.entries.ascendingFrom() : table.entries.descending()) {
    if (value !== groupValue) {
      flush();
      if (out.length >= needed) break;
      groupValue = value;
    }
    if (seen.has(name)) continue;
    seen.add(name);
    if (filter.has(name)) group.push(name);
  }
  flush();
  if (out.length < needed) {
    const valueless = [...table.namesWithoutValue()].filter((name) => filter.has(name)).sort(byRest);
    for (const name of valueless) out.push(name);
  }
  return out;
}
