import type { ApiObject } from '../../api/object';
import { deepFreeze } from '../../util/deep-freeze';
import { NAME_INDEX, indexValues, isOrdered, type IndexSpec } from '../indexes';
import { isPairIndex } from '../pair-indexes';
import type { IndexStatus } from '../interface';
import type { WatchEvent, WatchEventType } from '../watch';
import { ChangeLog, type ChangeLogLimits } from './change-log';
import { IndexTable } from './index-table';

/** A type's state as a durable store kept it: see `TypeStore.restore`. */
export interface RestoredType {
  /** The type's revision: every write so far, including those whose objects are gone. */
  revision: number;
  /** The stored objects by name, frozen. */
  objects: ReadonlyMap<string, ApiObject>;
  /** The newest events in revision order (at most the retention), frozen; empty when none is known. */
  history: readonly WatchEvent[];
}

/** An object's values for every index of its type, by index name. */
export type ObjectIndexValues = ReadonlyMap<string, readonly string[]>;

/** A unique index value that another object already holds. */
export interface UniqueClash {
  index: string;
  value: string;
}

/**
 * Everything one type holds: its objects (frozen, shared with watch events),
 * its revision, its index tables and its change log. It applies writes that
 * the caller has already checked; it decides nothing about preconditions.
 */
export class TypeStore {
  /** The stored objects by name. They are frozen: copy before handing one out. */
  readonly objects = new Map<string, ApiObject>();
  /** The type's revision: the number of writes so far. */
  revision = 0;
  readonly log: ChangeLog;

  private readonly tables = new Map<string, IndexTable>();
  private readyWaiters: (() => void)[] = [];

  constructor(
    readonly type: string,
    limits: ChangeLogLimits,
  ) {
    this.log = new ChangeLog(type, limits);
  }

  /**
   * Takes a new list of index specs (defaults included). Indexes already
   * present keep their entries and take the new spec (unless they start or
   * stop being ordered: those are new); new ones start empty;
   * missing ones are dropped. Returns the new indexes that must be built
   * because the type already holds objects; they are marked as building.
   */
  define(specs: readonly IndexSpec[]): IndexTable[] {
    const wanted = new Set(specs.map((s) => s.name));
    for (const name of [...this.tables.keys()]) if (!wanted.has(name)) this.tables.delete(name);
    const toBuild: IndexTable[] = [];
    for (const spec of specs) {
      const existing = this.tables.get(spec.name);
      // A table that must start or stop ordering its values is built anew.
      if (existing !== undefined && existing.isOrdered === isOrdered(spec)) {
        existing.spec = spec;
        continue;
      }
      const table = new IndexTable(spec);
      this.tables.set(spec.name, table);
      if (this.objects.size > 0) {
        table.building = { done: 0, total: this.objects.size };
        toBuild.push(table);
      }
    }
    this.notifyIfReady();
    return toBuild;
  }

  /** The index table of that name, if the type has it (built or building). */
  table(name: string): IndexTable | undefined {
    return this.tables.get(name);
  }

  /** Whether `table` is still one of the type's indexes (a build stops when it was dropped). */
  holds(table: IndexTable): boolean {
    return this.tables.get(table.name) === table;
  }

  /** The names of the type's indexes a query may name (not its pair indexes), in declaration order. */
  indexNames(): string[] {
    return this.specs()
      .filter((spec) => !isPairIndex(spec))
      .map((spec) => spec.name);
  }

  /** The specs of every index the type stores, pair indexes included. */
  specs(): IndexSpec[] {
    return [...this.tables.values()].map((table) => table.spec);
  }

  /** Computes an object's values for every index; an index function that throws fails the write. */
  valuesOf(object: ApiObject): ObjectIndexValues {
    const values = new Map<string, readonly string[]>();
    for (const table of this.tables.values()) values.set(table.name, indexValues(table.spec, object));
    return values;
  }

  /**
   * The first unique-index value of `values` held by an object other than
   * `name`. The name index is left out: a taken name is AlreadyExists, not a
   * clash. An index still being built only knows the objects it has reached.
   */
  findUniqueClash(name: string, values: ObjectIndexValues): UniqueClash | undefined {
    for (const table of this.tables.values()) {
      if (!table.spec.unique || table.name === NAME_INDEX) continue;
      for (const value of values.get(table.name) ?? []) {
        for (const holder of table.namesWith(value)) {
          if (holder !== name) return { index: table.name, value };
        }
      }
    }
    return undefined;
  }

  /**
   * Stores an object written at the next revision (its `resourceVersion` must
   * say so), updates every index, and logs the event. The object is frozen.
   */
  put(type: Exclude<WatchEventType, 'DELETED'>, object: ApiObject, values: ObjectIndexValues): WatchEvent {
    const name = this.advance(object);
    const event: WatchEvent =
      type === 'MODIFIED' ? { type, object, previousIndexValues: this.indexedValues(name) } : { type, object };
    this.objects.set(name, object);
    const created = object.metadata.creationTimestamp;
    for (const table of this.tables.values()) table.set(name, values.get(table.name) ?? [], created);
    deepFreeze(event);
    this.log.append(this.revision, event);
    return event;
  }

  /**
   * Removes an object and its index entries, and logs `lastState` (which
   * carries the removal's revision) as DELETED. The state is frozen.
   */
  remove(lastState: ApiObject): WatchEvent {
    const name = this.advance(lastState);
    this.objects.delete(name);
    for (const table of this.tables.values()) table.delete(name);
    const event: WatchEvent = { type: 'DELETED', object: lastState };
    deepFreeze(event);
    this.log.append(this.revision, event);
    return event;
  }

  /**
   * Takes over a type's state from elsewhere (a durable store reopening):
   * its objects, its revision and its newest events, oldest first, for
   * watches that resume. Call it on a new store before `define`, which then
   * reports every index as one to build. Objects and events must be frozen.
   */
  restore(state: RestoredType): void {
    if (this.revision !== 0 || this.objects.size > 0) throw new Error(`internal: ${this.type} restored twice`);
    for (const [name, object] of state.objects) this.objects.set(name, object);
    this.revision = state.revision;
    for (const event of state.history) this.log.append(Number(event.object.metadata.resourceVersion), event);
  }

  /** Build progress of the type's indexes. */
  status(): IndexStatus {
    const building = [...this.tables.values()]
      .filter((t) => t.building !== undefined)
      .map((t) => ({ name: t.name, done: t.building?.done ?? 0, total: t.building?.total ?? 0 }));
    return { ready: building.length === 0, building };
  }

  /** Resolves when no index of the type is being built. */
  whenReady(): Promise<void> {
    if (this.status().ready) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Marks a build finished (or abandoned) and wakes the waiters when none is left. */
  finishBuild(table: IndexTable): void {
    table.building = undefined;
    this.notifyIfReady();
  }

  /**
   * An object's current values in every index that has reached it, in the
   * order `indexValues` gives them (a watch compares them with a new state's).
   */
  private indexedValues(name: string): Record<string, string[]> {
    const record: Record<string, string[]> = {};
    for (const table of this.tables.values()) {
      if (isPairIndex(table.spec)) continue;
      const values = table.valuesOf(name);
      if (values !== undefined) record[table.name] = [...values].sort();
    }
    return record;
  }

  private notifyIfReady(): void {
    if (!this.status().ready) return;
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const wake of waiters) wake();
  }

  private advance(object: ApiObject): string {
    const revision = this.revision + 1;
    if (object.metadata.resourceVersion !== String(revision) || object.metadata.name === undefined) {
      throw new Error(`internal: ${this.type} write stamped ${object.metadata.resourceVersion}, expected ${revision}`);
    }
    this.revision = revision;
    return object.metadata.name;
  }
}
