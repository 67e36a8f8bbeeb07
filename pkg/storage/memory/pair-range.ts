import type { ListPosition } from '../continue-token';
import { pairPrefixes } from '../pair-indexes';
import type { IndexTable } from './index-table';
import { afterPosition, walkFirstKey, type TableSortKey } from './list-order';
import type { IndexEntry } from './sorted-entries';

/** A pair index's entries of one filter value: the objects holding it, in the order of the pair's sort index. */
export interface PairRange {
  pairs: IndexTable;
  value: string;
}

/**
 * The first `needed` objects of a pair range in the order of `keys` (whose
 * first key is the pair's sort index), after a continue position when given:
 * a walk of that value's pair entries from where the page starts, so
 * O(log n + page) as in Redis (ADR 0023). Objects without a sort value come
 * last, by the other keys, then by name.
 */
export function pairNames(
  range: PairRange,
  keys: readonly [TableSortKey, ...TableSortKey[]],
  needed: number,
  after?: ListPosition,
): string[] {
  const { unsorted } = pairPrefixes(range.value);
  const source = {
    entries: pairEntries(range, keys[0].direction, after?.s[0]),
    valueless: () => range.pairs.namesWith(unsorted),
  };
  return walkFirstKey(source, keys, needed, afterPosition(keys, after));
}

/**
 * The pair entries of the range's value with their sort values, in `direction`,
 * from a continue position's first value (`false`: only objects without one remain).
 */
function* pairEntries(
  { pairs, value }: PairRange,
  direction: 'asc' | 'desc',
  from: string | false | undefined,
): Generator<IndexEntry> {
  if (from === false) return;
  const { sorted, unsorted } = pairPrefixes(value);
  let entries: Iterable<IndexEntry>;
  if (direction === 'asc') entries = pairs.entries.ascendingFrom(sorted + (from ?? ''));
  else if (from === undefined) entries = pairs.entries.descendingBefore({ value: unsorted, name: '' });
  else entries = pairs.entries.descendingFrom(sorted + from);
  for (const entry of entries) {
    if (!entry.value.startsWith(sorted)) return;
    yield { value: entry.value.slice(sorted.length), name: entry.name };
  }
}
