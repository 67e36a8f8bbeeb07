import { compareBytes } from '../byte-order';

/** One (value, object name) pair of an index, the unit a sorted index holds. */
export interface IndexEntry {
  readonly value: string;
  readonly name: string;
}

/** Orders entries by value, then by name, both in byte order. */
export const compareEntries = (a: IndexEntry, b: IndexEntry): number =>
  compareBytes(a.value, b.value) || compareBytes(a.name, b.name);

/** Entries per block before it splits; blocks keep inserts and removals cheap at any size. */
const DEFAULT_BLOCK_SIZE = 512;

/**
 * An index's entries kept sorted by (value, name), the in-memory counterpart
 * of a Redis sorted set: it finds where a value or a prefix starts, and is
 * walked in either direction to yield objects in sort order without sorting
 * them. Stored as a list of sorted blocks, so an insert or removal moves at
 * most one block's entries, not the whole index.
 *
 * @example
 * const s = new SortedEntries();
 * s.insert({ value: 'app=web', name: 'a' });
 * [...s.ascendingFrom('app=')]; // [{ value: 'app=web', name: 'a' }]
 */
export class SortedEntries {
  private blocks: IndexEntry[][] = [];
  private count = 0;

  /** `compare` orders the entries; every walk by value assumes it orders by value first (the default). */
  constructor(
    private readonly blockSize = DEFAULT_BLOCK_SIZE,
    private readonly compare: (a: IndexEntry, b: IndexEntry) => number = compareEntries,
  ) {}

  /** Entries that are already sorted by `compareEntries` and distinct, in half-full blocks. */
  static fromSorted(entries: readonly IndexEntry[], blockSize = DEFAULT_BLOCK_SIZE): SortedEntries {
    const sorted = new SortedEntries(blockSize);
    const fill = Math.max(1, blockSize >>> 1);
    for (let at = 0; at < entries.length; at += fill) sorted.blocks.push(entries.slice(at, at + fill));
    sorted.count = entries.length;
    return sorted;
  }

  /** How many entries there are. */
  get length(): number {
    return this.count;
  }

  /** Adds one entry; adding an entry that is present changes nothing. */
  insert(entry: IndexEntry): void {
    if (this.blocks.length === 0) {
      this.blocks.push([entry]);
      this.count = 1;
      return;
    }
    const b = Math.min(this.blockFor(entry), this.blocks.length - 1);
    const block = this.blocks[b];
    const at = lowerBound(block, entry, this.compare);
    if (at < block.length && this.compare(block[at], entry) === 0) return;
    block.splice(at, 0, entry);
    this.count++;
    if (block.length > this.blockSize) this.blocks.splice(b + 1, 0, block.splice(block.length >>> 1));
  }

  /** Removes one entry if present. */
  remove(entry: IndexEntry): void {
    const b = this.blockFor(entry);
    const block = this.blocks[b];
    if (block === undefined) return;
    const at = lowerBound(block, entry, this.compare);
    if (at >= block.length || this.compare(block[at], entry) !== 0) return;
    block.splice(at, 1);
    this.count--;
    if (block.length === 0) this.blocks.splice(b, 1);
  }

  /** The entries from the first one whose value is not before `value`, in ascending order. */
  ascendingFrom(value = ''): Generator<IndexEntry> {
    return this.ascendingFromEntry({ value, name: '' });
  }

  /** The entries from the first one not before `probe` (in this set's order), in ascending order. */
  *ascendingFromEntry(probe: IndexEntry): Generator<IndexEntry> {
    const first = this.blockFor(probe);
    for (let b = first; b < this.blocks.length; b++) {
      const block = this.blocks[b];
      for (let i = b === first ? lowerBound(block, probe, this.compare) : 0; i < block.length; i++) yield block[i];
    }
  }

  /** Every entry in ascending order. */
  *ascending(): Generator<IndexEntry> {
    for (const block of this.blocks) yield* block;
  }

  /** Every entry in descending order. */
  *descending(): Generator<IndexEntry> {
    for (let b = this.blocks.length - 1; b >= 0; b--) {
      const block = this.blocks[b];
      for (let i = block.length - 1; i >= 0; i--) yield block[i];
    }
  }

  /** The entries from the last one whose value is not after `value`, in descending order. */
  *descendingFrom(value: string): Generator<IndexEntry> {
    const last = this.firstBlockAbove(value);
    for (let b = Math.min(last, this.blocks.length - 1); b >= 0; b--) {
      const block = this.blocks[b];
      for (let i = b === last ? firstAbove(block, value) - 1 : block.length - 1; i >= 0; i--) yield block[i];
    }
  }

  /** The entries before `probe` (in this set's order), in descending order. */
  *descendingBefore(probe: IndexEntry): Generator<IndexEntry> {
    const first = this.blockFor(probe);
    for (let b = Math.min(first, this.blocks.length - 1); b >= 0; b--) {
      const block = this.blocks[b];
      for (let i = b === first ? lowerBound(block, probe, this.compare) - 1 : block.length - 1; i >= 0; i--) {
        yield block[i];
      }
    }
  }

  /** The first block whose last entry is not before `entry`; `blocks.length` when there is none. */
  private blockFor(entry: IndexEntry): number {
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const block = this.blocks[mid];
      if (this.compare(block[block.length - 1], entry) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The first block whose last value is after `value`; `blocks.length` when there is none. */
  private firstBlockAbove(value: string): number {
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const block = this.blocks[mid];
      if (compareBytes(block[block.length - 1].value, value) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** The first position in a sorted block whose value is after `value`. */
function firstAbove(block: readonly IndexEntry[], value: string): number {
  let lo = 0;
  let hi = block.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareBytes(block[mid].value, value) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first position in a sorted block whose entry is not before `entry`. */
function lowerBound(
  block: readonly IndexEntry[],
  entry: IndexEntry,
  compare: (a: IndexEntry, b: IndexEntry) => number,
): number {
  let lo = 0;
  let hi = block.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compare(block[mid], entry) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
