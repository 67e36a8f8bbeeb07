import type { ResourceType, Storage, StorageOptions } from '../interface';
import { TEST_INDEXES, WIDGETS } from './fixtures';
import { listenedWatcher, WatchReader, type WatchConsumption } from './watch-reader';

/** Opens a fresh, empty storage (for Redis: under its own key prefix), passing the options through. */
export type OpenStorage = (options?: StorageOptions) => Promise<Storage>;

/** Knobs a backend may give the suite. */
export interface ConformanceOptions {
  /**
   * The `watchRetention` the Expired cases open storage with (default 10).
   * The suite writes 20 times as many changes, so a backend that trims its
   * change log approximately (e.g. Redis `XTRIM MAXLEN ~`) still drops the oldest.
   */
  watchRetention?: number;
}

/** What every area of the suite uses to get storage and watches, all released after each case. */
export interface Harness {
  /** The suite's options with defaults filled in. */
  readonly options: Required<ConformanceOptions>;
  /** A fresh storage, closed after the case. */
  open(options?: StorageOptions): Promise<Storage>;
  /** A fresh storage with WIDGETS defined with TEST_INDEXES. */
  widgets(options?: StorageOptions): Promise<{ storage: Storage; type: ResourceType }>;
  /** A reader of a new watch, stopped after the case; it iterates the watcher unless told to `listen`. */
  watch(storage: Storage, type: ResourceType, fromRevision?: string, consumption?: WatchConsumption): WatchReader;
  /** Closes a storage now (and not again after the case). */
  close(storage: Storage): Promise<void>;
}

/**
 * Builds the harness and registers its `afterEach` cleanup; call it inside
 * a `describe` block.
 */
export function createHarness(openStorage: OpenStorage, options: ConformanceOptions = {}): Harness {
  const storages = new Set<Storage>();
  const readers: WatchReader[] = [];

  const harness: Harness = {
    options: { watchRetention: options.watchRetention ?? 10 },
    async open(storageOptions) {
      const storage = await openStorage(storageOptions);
      storages.add(storage);
      return storage;
    },
    async widgets(storageOptions) {
      const storage = await harness.open(storageOptions);
      await storage.defineType(WIDGETS, TEST_INDEXES);
      return { storage, type: WIDGETS };
    },
    watch(storage, type, fromRevision, consumption = 'iterate') {
      const watcher = storage.watch(type, fromRevision === undefined ? {} : { fromRevision });
      const reader = new WatchReader(consumption === 'listen' ? listenedWatcher(watcher) : watcher);
      readers.push(reader);
      return reader;
    },
    async close(storage) {
      storages.delete(storage);
      await storage.close();
    },
  };

  afterEach(async () => {
    for (const reader of readers.splice(0)) reader.stop();
    const open = [...storages];
    storages.clear();
    await Promise.all(open.map((s) => s.close()));
  });

  return harness;
}
