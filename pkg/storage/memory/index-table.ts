import { isOrdered, type IndexSpec } from '../indexes';
import { compareBytes } from '../byte-order';
import { compareEntries, SortedEntries, type IndexEntry } from './sorted-entries';
import { orderEntry, ValueOrder } from './value-order';

/** One object's values, and its creation timestamp (which an ordered index orders each value's objects by). */
export interface IndexedObject {
  name: string;
  values: readonly string[];
  created?: string;
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** How far an index build has come: objects done out of objects to do. */
export interface BuildProgress {
  done: number;
  total: number;
}

/**
 * One index of one type: which objects hold each value (for filters and
 * unique checks), every object's values (for removal and sort comparisons),
 * the entries sorted by value (for prefixes and ordered walks), and the
 * objects that hold no value (they sort last).
 *
 * @example
 * const t = new IndexTable(spec);
 * t.set('ada', ['blue', 'red']);
 * t.namesWith('red');  // Set {'ada'}
 * t.valuesOf('ada');   // ['blue', 'red']
 */
export class IndexTable {
  /** The index's spec; replaced when the type is defined again with an index of the same name. */
  spec: IndexSpec;
  /** Set while the index is being built for existing objects; queries must not use it until then. */
  building: BuildProgress | undefined;

  private readonly byValue = new Map<string, Set<string>>();
  private readonly byObject = new Map<string, readonly string[]>();
  private readonly withoutValue = new Set<string>();
  private sorted = new SortedEntries();
  /** Set for an ordered index: each value's objects in the default order, and each object's creation time. */
  private readonly ordered: { byValue: ValueOrder; createdOf: Map<string, string | undefined> } | undefined;

  constructor(spec: IndexSpec) {
    this.spec = spec;
    if (isOrdered(spec)) this.ordered = { byValue: new ValueOrder(), createdOf: new Map() };
  }

  /** Whether each value's objects are kept in the default order (fixed when the table is made). */
  get isOrdered(): boolean {
    return this.ordered !== undefined;
  }

  /**
   * The objects holding `value` in the default list order, strictly after the
   * object at (`created`, `name`) when given. Only for an ordered table.
   */
  inDefaultOrder(value: string, after?: { created: string | undefined; name: string }): Iterable<string> {
    if (this.ordered === undefined) throw new Error(`internal: index ${this.name} is not ordered`);
    return this.ordered.byValue.from(value, after && orderEntry(after.created, after.name));
  }

  /** The index's name, e.g. `spec.tags`. */
  get name(): string {
    return this.spec.name;
  }

  /** The entries in (value, name) order, to walk for a sort. */
  get entries(): SortedEntries {
    return this.sorted;
  }

  /** Whether the object has been indexed (with or without values). */
  has(name: string): boolean {
    return this.byObject.has(name);
  }

  /** The object's values in byte order (smallest first); undefined when it is not indexed. */
  valuesOf(name: string): readonly string[] | undefined {
    return this.byObject.get(name);
  }

  /** The objects holding a value. The set is the table's own: read it, never change it. */
  namesWith(value: string): ReadonlySet<string> {
    return this.byValue.get(value) ?? NO_NAMES;
  }

  /** The objects holding any value that starts with `prefix` (label existence: `key=`). */
  namesWithPrefix(prefix: string): Set<string> {
    const names = new Set<string>();
    for (const entry of this.sorted.ascendingFrom(prefix)) {
      if (!entry.value.startsWith(prefix)) break;
      names.add(entry.name);
    }
    return names;
  }

  /** The indexed objects that hold no value. Read it, never change it. */
  namesWithoutValue(): ReadonlySet<string> {
    return this.withoutValue;
  }

  /** Records an object's values (and creation timestamp), replacing those it had. */
  set(name: string, values: readonly string[], created?: string): void {
    const next = [...new Set(values)].sort(compareBytes);
    const previous = this.byObject.get(name);
    if (previous !== undefined && sameValues(previous, next) && this.ordered?.createdOf.get(name) === created) return;
    if (previous !== undefined) this.delete(name);
    this.byObject.set(name, next);
    if (next.length === 0) this.withoutValue.add(name);
    for (const value of next) {
      this.holders(value).add(name);
      this.sorted.insert({ value, name });
    }
    this.enterOrdered(name, next, created);
  }

  /**
   * Fills an empty table with every object's values in one go: the entries
   * are sorted once instead of inserted one by one (a restored type's build).
   */
  load(objects: readonly IndexedObject[]): void {
    if (this.byObject.size > 0) throw new Error(`internal: index ${this.name} loaded when not empty`);
    const entries: IndexEntry[] = [];
    for (const { name, values, created } of objects) {
      const unique = values.length < 2 ? values : [...new Set(values)].sort(compareBytes);
      this.byObject.set(name, unique);
      if (unique.length === 0) this.withoutValue.add(name);
      for (const value of unique) {
        this.holders(value).add(name);
        entries.push({ value, name });
      }
      this.enterOrdered(name, unique, created);
    }
    this.sorted = SortedEntries.fromSorted(entries.sort(compareEntries));
  }

  /**
   * Records many objects' values at once (a build batch), skipping objects
   * that are already indexed: a write during the build indexed them from a
   * newer state than the batch saw.
   */
  addMany(batch: readonly IndexedObject[]): void {
    for (const { name, values, created } of batch) {
      if (!this.byObject.has(name)) this.set(name, values, created);
    }
  }

  /** Forgets an object. */
  delete(name: string): void {
    const previous = this.byObject.get(name);
    if (previous === undefined) return;
    this.byObject.delete(name);
    this.withoutValue.delete(name);
    for (const value of previous) {
      const names = this.byValue.get(value);
      names?.delete(name);
      if (names?.size === 0) this.byValue.delete(value);
      this.sorted.remove({ value, name });
    }
    if (this.ordered !== undefined) {
      const entry = orderEntry(this.ordered.createdOf.get(name), name);
      for (const value of previous) this.ordered.byValue.remove(value, entry);
      this.ordered.createdOf.delete(name);
    }
  }

  private enterOrdered(name: string, values: readonly string[], created: string | undefined): void {
    if (this.ordered === undefined) return;
    this.ordered.createdOf.set(name, created);
    const entry = orderEntry(created, name);
    for (const value of values) this.ordered.byValue.add(value, entry);
  }

  private holders(value: string): Set<string> {
    let names = this.byValue.get(value);
    if (names === undefined) {
      names = new Set();
      this.byValue.set(value, names);
    }
    return names;
  }
}

const sameValues = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((v, i) => v === b[i]);
