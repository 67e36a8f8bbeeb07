import { compareBytes } from '../byte-order';
import { SortedEntries, type IndexEntry } from './sorted-entries';

/** The entry value of an object without a creation timestamp (none holds NUL: it is set by the storage). */
const NO_TIME = '\0';

/** Orders (creation timestamp, name) entries in the default list order: newest first, then by name; no time last. */
export const compareDefaultOrder = (a: IndexEntry, b: IndexEntry): number => {
  if (a.value !== b.value) {
    if (a.value === NO_TIME || b.value === NO_TIME) return a.value === NO_TIME ? 1 : -1;
    return compareBytes(b.value, a.value);
  }
  return compareBytes(a.name, b.name);
};

/** An object's entry in a value's default order. */
export const orderEntry = (created: string | undefined, name: string): IndexEntry => ({
  value: created ?? NO_TIME,
  name,
});

/**
 * The objects holding each value of an ordered index (`isOrdered`), each
 * value's kept in the default list order, so that a page of one equality is
 * read from where it starts, O(log n + page), as the Redis backend reads a
 * range of its ordered members (ADR 0017).
 *
 * @example
 * const v = new ValueOrder();
 * v.add('red', orderEntry('2026-01-02T00:00:00Z', 'b'));
 * v.add('red', orderEntry('2026-01-01T00:00:00Z', 'a'));
 * [...v.from('red')].map((e) => e.name); // ['b', 'a']
 */
export class ValueOrder {
  private readonly byValue = new Map<string, SortedEntries>();

  add(value: string, entry: IndexEntry): void {
    let entries = this.byValue.get(value);
    if (entries === undefined) {
      entries = new SortedEntries(undefined, compareDefaultOrder);
      this.byValue.set(value, entries);
    }
    entries.insert(entry);
  }

  remove(value: string, entry: IndexEntry): void {
    const entries = this.byValue.get(value);
    entries?.remove(entry);
    if (entries?.length === 0) this.byValue.delete(value);
  }

  /** The names holding `value`, in the default order, from the first one strictly after `after` (if given). */
  *from(value: string, after?: IndexEntry): Generator<string> {
    const entries = this.byValue.get(value);
    if (entries === undefined) return;
    const walk = after === undefined ? entries.ascending() : entries.ascendingFromEntry(after);
    for (const entry of walk) {
      if (after === undefined || compareDefaultOrder(entry, after) > 0) yield entry.name;
    }
  }
}
