import { mkdir, rm } from 'node:fs/promises';
import type { ApiObject } from '../../api/object';
import { unavailable } from '../errors';
import type { IndexSpec } from '../indexes';
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
import { MemoryStorage, type TypeContents } from '../memory/memory-storage';
import type { RestoredType } from '../memory/type-store';
import type { ListOptions, ListResult } from '../query';
import type { WatchEvent, Watcher } from '../watch';
import { lockDirectory, type DirectoryLock } from './dir-lock';
import { Journal } from './journal';
import { journalPath, listDirectory, snapshotPath } from './layout';
import { journalRecord } from './records';
import { recoverStore } from './recovery';
import { writeSnapshot } from './snapshot';

/** Options of the `file://` backend besides those every backend takes. */
export interface FileStorageOptions extends StorageOptions {
  /** Journal bytes after which a new snapshot is written and the journal starts over. Default 64 MiB. */
  snapshotBytes?: number;
}

/** What opening took, for logs and the benchmark. */
export interface OpenStats {
  objects: number;
  replayedRecords: number;
  millis: number;
}

const DEFAULT_SNAPSHOT_BYTES = 64 * 1024 * 1024;

/**
 * The durable embedded backend (`file://<dir>`): the memory backend's state,
 * kept in a directory as an append-only journal plus snapshots. Every write
 * is applied in memory, appended to the journal and fsync'd before it
 * resolves (writes that arrive during an fsync share the next one). Opening
 * loads the latest snapshot and replays the journal; once the journal has
 * grown by `snapshotBytes`, a new snapshot is written in the background and
 * the older files are removed. The directory is locked while open.
 *
 * A write is visible to readers in this process as soon as it is applied,
 * before its fsync (as with Redis' `appendfsync always`); it is acknowledged
 * to its caller only once durable. When the journal cannot be written, every
 * later write fails with Unavailable and `ping` turns false.
 *
 * @example
 * const storage = await FileStorage.open('./data');
 */
export class FileStorage implements Storage {
  private snapshotting: Promise<void> | undefined;
  private closed = false;

  private readonly memory: MemoryStorage;

  private constructor(
    private readonly dir: string,
    private readonly journal: Journal,
    private readonly lock: DirectoryLock,
    /** Types restored from disk that no call has used yet (the memory store takes each over on first use). */
    private readonly pending: Map<ResourceType, RestoredType>,
    private readonly snapshotBytes: number,
    /** What opening found and how long it took. */
    readonly openStats: OpenStats,
    options: StorageOptions,
  ) {
    this.memory = new MemoryStorage(options, {
      restore: (type) => {
        const restored = pending.get(type);
        pending.delete(type);
        return restored;
      },
      written: (type, event) => this.written(type, event),
    });
  }

  /** Opens (creating it when absent) and locks the store in `dir`. */
  static async open(dir: string, options: FileStorageOptions = {}): Promise<FileStorage> {
    const started = performance.now();
    await mkdir(dir, { recursive: true });
    const lock = await lockDirectory(dir);
    try {
      const recovered = await recoverStore(dir, options.watchRetention ?? 100_000);
      const journal = await Journal.open(dir, recovered.journal);
      let objects = 0;
      for (const type of recovered.types.values()) objects += type.objects.size;
      const stats = { objects, replayedRecords: recovered.replayed, millis: Math.round(performance.now() - started) };
      const snapshotBytes = options.snapshotBytes ?? DEFAULT_SNAPSHOT_BYTES;
      const storage = new FileStorage(dir, journal, lock, recovered.types, snapshotBytes, stats, options);
      if (recovered.journalBytes >= snapshotBytes) storage.startSnapshot();
      return storage;
    } catch (err) {
      await lock.release();
      throw err;
    }
  }

  defineType(type: ResourceType, indexes: IndexSpec[], onProgress?: IndexProgress): Promise<void> {
    return this.memory.defineType(type, indexes, onProgress);
  }

  indexStatus(type: ResourceType): IndexStatus {
    return this.memory.indexStatus(type);
  }

  whenIndexesReady(type: ResourceType): Promise<void> {
    return this.memory.whenIndexesReady(type);
  }

  async create(type: ResourceType, object: ApiObject, options: WriteOptions = {}): Promise<ApiObject> {
    this.checkWritable();
    return this.durable(await this.memory.create(type, object, options));
  }

  get(type: ResourceType, name: string): Promise<ApiObject> {
    return this.memory.get(type, name);
  }

  list(type: ResourceType, options?: ListOptions): Promise<ListResult> {
    return this.memory.list(type, options);
  }

  async update(
    type: ResourceType,
    name: string,
    mutate: MutateFn,
    preconditions?: Preconditions,
    options: WriteOptions = {},
  ): Promise<ApiObject> {
    this.checkWritable();
    return this.durable(await this.memory.update(type, name, mutate, preconditions, options));
  }

  async delete(
    type: ResourceType,
    name: string,
    preconditions?: Preconditions,
    options: WriteOptions = {},
  ): Promise<ApiObject> {
    this.checkWritable();
    return this.durable(await this.memory.delete(type, name, preconditions, options));
  }

  watch(type: ResourceType, options?: { fromRevision?: string }): Watcher {
    return this.memory.watch(type, options);
  }

  currentRevision(type: ResourceType): Promise<string> {
    return this.memory.currentRevision(type);
  }

  async ping(): Promise<boolean> {
    return this.journal.failed === undefined && this.memory.ping();
  }

  /**
   * Writes a snapshot of the current state now and resolves once it is on
   * disk and the files it replaces are removed (e.g. before a backup, or to
   * make the next reopen fast).
   */
  async snapshot(): Promise<void> {
    await this.snapshotting;
    this.startSnapshot();
    await this.snapshotting;
  }

  /** Ends every watch, writes what is queued, stops a snapshot in progress, and unlocks the directory. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.memory.close();
    await this.snapshotting;
    await this.journal.close();
    await this.lock.release();
  }

  /** Resolves with `result` once every write so far (the caller's among them) is durable. */
  private async durable(result: ApiObject): Promise<ApiObject> {
    try {
      await this.journal.sync();
    } catch (err) {
      throw unavailable(`the store's journal could not be written: ${(err as Error).message}`);
    }
    return result;
  }

  private checkWritable(): void {
    const failure = this.journal.failed;
    if (failure !== undefined) throw unavailable(`the store's journal could not be written: ${failure.message}`);
  }

  /** Journals a write the memory store applied; starts a snapshot when the journal has grown enough. */
  private written(type: ResourceType, event: WatchEvent): void {
    this.journal.append(journalRecord(type, event));
    if (this.journal.bytesSinceRotation >= this.snapshotBytes) this.startSnapshot();
  }

  /**
   * Starts the next journal and, in the background, writes the snapshot of
   * the state the previous journals end at (taken now, synchronously); then
   * removes the files it replaces. A failed snapshot leaves the journals, so
   * nothing is lost; the next one is tried after the journal grows again.
   */
  private startSnapshot(): void {
    if (this.snapshotting !== undefined || this.closed) return;
    const seq = this.journal.currentSeq + 1;
    this.journal.rotate(seq);
    const contents = this.contents();
    this.snapshotting = writeSnapshot(this.dir, seq, contents, () => this.closed)
      .then((written) => (written ? this.removeBefore(seq) : undefined))
      .catch(() => undefined)
      .finally(() => {
        this.snapshotting = undefined;
      });
  }

  /** Every type's objects and revision now, including types restored but not used since opening. */
  private contents(): TypeContents[] {
    const contents = this.memory.contents();
    for (const [type, restored] of this.pending) {
      contents.push({ type, revision: restored.revision, objects: [...restored.objects.values()] });
    }
    return contents;
  }

  /** Removes the journals and snapshots that snapshot `seq` replaces. */
  private async removeBefore(seq: number): Promise<void> {
    const listing = await listDirectory(this.dir);
    for (const old of listing.snapshots.filter((s) => s < seq)) await rm(snapshotPath(this.dir, old), { force: true });
    for (const old of listing.journals.filter((s) => s < seq)) await rm(journalPath(this.dir, old), { force: true });
  }
}
