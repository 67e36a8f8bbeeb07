import type { ApiObject } from '../../api/object';
import { StorageError, alreadyExists, notFound, staleConflict, uniqueConflict, unavailable } from '../errors';
import { DEFAULT_INDEXES, type IndexSpec } from '../indexes';
import { storedIndexes } from '../pair-indexes';
import type {
  IndexProgress,
  IndexStatus,
  MutateFn,
  Preconditions,
  ResourceType,
  Storage,
  StorageOptions,
  WriteOptions,
} from '../interface';
import { requireMetadata } from '../written-objects';
import { clone, generateName, stampCreate, stampUpdate } from '../objects';
import type { ListOptions, ListResult } from '../query';
import type { WatchEvent, Watcher } from '../watch';
import { buildIndex, buildIndexNow } from './index-builder';
import { runList } from './list-query';
import { hasPreconditions, meetsPreconditions } from '../preconditions';
import { TypeStore, type ObjectIndexValues, type RestoredType } from './type-store';
import { WatcherQueue } from '../watcher-queue';

/**
 * What a durable store built on the memory backend plugs in (`file://`): where
 * a type's state comes from when it is first used, and where every write goes.
 */
export interface MemoryPersistence {
  /** The state a type had when the store was opened; undefined for a new type. Asked once per type. */
  restore(type: ResourceType): RestoredType | undefined;
  /** Called synchronously after each write is applied, in revision order per type; the event is frozen. */
  written(type: ResourceType, event: WatchEvent): void;
}

/** One type's objects and revision at one moment, for a snapshot. The objects are frozen. */
export interface TypeContents {
  type: ResourceType;
  revision: number;
  objects: ApiObject[];
}

/** Attempts at a free generated name before create gives up with AlreadyExists. */
const GENERATE_NAME_ATTEMPTS = 5;

/**
 * The embedded backend (`memory://`): every type's objects, indexes and
 * change log in this process's memory, with exactly the semantics of the
 * `Storage` doc comments. Each instance is a separate store, and nothing
 * survives the process unless a `MemoryPersistence` keeps it (the `file://`
 * backend does). For fast tests and throwaway runs.
 *
 * A verb called on a type that was never defined defines it with the default
 * indexes first, so simple callers need no `defineType`; `indexStatus` and
 * `whenIndexesReady` are the exceptions (NotFound).
 *
 * Stored objects are frozen and shared with watch events; every object handed
 * to a caller is a copy.
 *
 * @example
 * const storage = new MemoryStorage({ watchRetention: 1000 });
 * await storage.create('persons.example.com', { apiVersion: 'example.com/v1', kind: 'Person', metadata: { name: 'ada' } });
 */
export class MemoryStorage implements Storage {
  private readonly stores = new Map<ResourceType, TypeStore>();
  private readonly retention: number;
  private readonly watchBuffer: number;
  private readonly batchSize: number;
  private closed = false;

  constructor(
    options: StorageOptions = {},
    private readonly persistence?: MemoryPersistence,
  ) {
    this.retention = option(options.watchRetention, 100_000, 0, 'watchRetention');
    this.watchBuffer = option(options.watchBuffer, 10_000, 1, 'watchBuffer');
    this.batchSize = option(options.indexBuildBatch, 500, 1, 'indexBuildBatch');
  }

  async defineType(type: ResourceType, indexes: IndexSpec[], onProgress?: IndexProgress): Promise<void> {
    this.checkOpen();
    const specs = storedIndexes(indexes);
    const store = this.stores.get(type);
    if (store === undefined) {
      this.newStore(type, specs);
      return;
    }
    for (const table of store.define(specs)) {
      void buildIndex(store, table, { batchSize: this.batchSize, onProgress, cancelled: () => this.closed });
    }
  }

  indexStatus(type: ResourceType): IndexStatus {
    return this.definedStore(type).status();
  }

  whenIndexesReady(type: ResourceType): Promise<void> {
    try {
      return this.definedStore(type).whenReady();
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  async create(type: ResourceType, object: ApiObject, options: WriteOptions = {}): Promise<ApiObject> {
    const store = this.store(type);
    if (typeof object?.metadata !== 'object' || object.metadata === null) {
      throw new StorageError('Invalid', `a ${type} object needs metadata`, { type });
    }
    const name = this.freeName(store, object);
    const stamped = stampCreate(object, name, String(store.revision + 1));
    const values = this.checkedValues(store, name, stamped);
    if (options.dryRun) return stamped;
    this.persist(type, store.put('ADDED', stamped, values));
    return clone(stamped);
  }

  async get(type: ResourceType, name: string): Promise<ApiObject> {
    return clone(this.current(this.store(type), name));
  }

  async list(type: ResourceType, options?: ListOptions): Promise<ListResult> {
    return runList(this.store(type), options);
  }

  async update(
    type: ResourceType,
    name: string,
    mutate: MutateFn,
    preconditions?: Preconditions,
    options: WriteOptions = {},
  ): Promise<ApiObject> {
    const store = this.store(type);
    for (;;) {
      const current = this.current(store, name);
      if (!meetsPreconditions(current, preconditions)) throw staleConflict(type, name);
      const result = mutate(clone(current));
      // A synchronous mutation runs with nothing interleaved; only an async one can be overtaken.
      const next = isThenable(result) ? await result : result;
      if (this.overtaken(store, type, name, current, preconditions)) continue;
      requireMetadata(type, next, `the update of ${type} "${name}"`);
      const stamped = stampUpdate(current, next, String(store.revision + 1));
      if (stamped === undefined) return clone(current);
      // The result may share parts with what the caller still holds; store a private copy.
      const stored = clone(stamped);
      const values = this.checkedValues(store, name, stored);
      if (!options.dryRun) this.persist(type, store.put('MODIFIED', stored, values));
      return clone(stored);
    }
  }

  /**
   * Whether an async mutation was overtaken by another write of the object:
   * NotFound when it was deleted, Conflict when the update had preconditions,
   * else true (the update starts again from the new state).
   */
  private overtaken(
    store: TypeStore,
    type: ResourceType,
    name: string,
    current: ApiObject,
    preconditions: Preconditions | undefined,
  ): boolean {
    if (store.objects.get(name) === current) return false;
    if (!store.objects.has(name)) throw notFound(type, name);
    if (hasPreconditions(preconditions)) throw staleConflict(type, name);
    return true;
  }

  async delete(
    type: ResourceType,
    name: string,
    preconditions?: Preconditions,
    options: WriteOptions = {},
  ): Promise<ApiObject> {
    const store = this.store(type);
    const current = this.current(store, name);
    if (!meetsPreconditions(current, preconditions)) throw staleConflict(type, name);
    const lastState: ApiObject = {
      ...current,
      metadata: { ...current.metadata, resourceVersion: String(store.revision + 1) },
    };
    if (!options.dryRun) this.persist(type, store.remove(lastState));
    return clone(lastState);
  }

  /** Never throws: a closed storage gives a watcher whose first read throws Unavailable. */
  watch(type: ResourceType, options: { fromRevision?: string } = {}): Watcher {
    if (this.closed) return failedWatcher(unavailable('the memory storage is closed'));
    const store = this.store(type);
    return store.log.watch(options.fromRevision, store.revision);
  }

  async currentRevision(type: ResourceType): Promise<string> {
    return String(this.store(type).revision);
  }

  async ping(): Promise<boolean> {
    return !this.closed;
  }

  /** Ends every watch and stops index builds; every later call fails with Unavailable. */
  async close(): Promise<void> {
    this.closed = true;
    for (const store of this.stores.values()) store.log.stopAll();
  }

  /** The type's store, defining the type with the default indexes when it is new. */
  private store(type: ResourceType): TypeStore {
    this.checkOpen();
    return this.stores.get(type) ?? this.newStore(type, DEFAULT_INDEXES);
  }

  private definedStore(type: ResourceType): TypeStore {
    this.checkOpen();
    const store = this.stores.get(type);
    if (store === undefined) throw new StorageError('NotFound', `type ${type} is not defined`, { type });
    return store;
  }

  /** The objects and revision of every type used so far, as of now; cheap (the frozen objects are shared). */
  contents(): TypeContents[] {
    return [...this.stores.values()].map((store) => ({
      type: store.type,
      revision: store.revision,
      objects: [...store.objects.values()],
    }));
  }

  /** A new type's store; one restored from persistence gets its indexes built before it is used. */
  private newStore(type: ResourceType, specs: readonly IndexSpec[]): TypeStore {
    const store = new TypeStore(type, { retention: this.retention, watchBuffer: this.watchBuffer });
    const restored = this.persistence?.restore(type);
    if (restored !== undefined) store.restore(restored);
    for (const table of store.define(specs)) buildIndexNow(store, table);
    this.stores.set(type, store);
    return store;
  }

  private persist(type: ResourceType, event: WatchEvent): void {
    this.persistence?.written(type, event);
  }

  private current(store: TypeStore, name: string): ApiObject {
    const object = store.objects.get(name);
    if (object === undefined) throw notFound(store.type, name);
    return object;
  }

  /** The name a create stores under: the given one if free, else a free generated one. */
  private freeName(store: TypeStore, object: ApiObject): string {
    const given = object.metadata.name;
    if (given) {
      if (store.objects.has(given)) throw alreadyExists(store.type, given);
      return given;
    }
    const prefix = object.metadata.generateName;
    if (!prefix) {
      throw new StorageError('Invalid', `a ${store.type} object needs metadata.name or metadata.generateName`, {
        type: store.type,
      });
    }
    let candidate = generateName(prefix);
    for (let attempt = 1; attempt < GENERATE_NAME_ATTEMPTS && store.objects.has(candidate); attempt++) {
      candidate = generateName(prefix);
    }
    if (store.objects.has(candidate)) throw alreadyExists(store.type, candidate);
    return candidate;
  }

  /** The object's index values, after checking that no other object holds one of its unique values. */
  private checkedValues(store: TypeStore, name: string, object: ApiObject): ObjectIndexValues {
    const values = store.valuesOf(object);
    const clash = store.findUniqueClash(name, values);
    if (clash !== undefined) throw uniqueConflict(store.type, name, clash.index, clash.value);
    return values;
  }

  private checkOpen(): void {
    if (this.closed) throw unavailable('the memory storage is closed');
  }
}

const isThenable = <T>(value: T | PromiseLike<T>): value is PromiseLike<T> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

/** A watcher that has already ended with an error, which its first read throws. */
function failedWatcher(error: Error): Watcher {
  const watcher = new WatcherQueue<WatchEvent>({ capacity: 1, overflowError: () => error });
  watcher.fail(error);
  return watcher;
}

/** A numeric option with its default; out of range is a programming error, reported at construction. */
function option(value: number | undefined, fallback: number, min: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, not ${value}`);
  return value;
}
