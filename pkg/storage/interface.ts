import type { Logger } from '../util/log';
import type { ApiObject } from '../api/object';
import type { IndexSpec } from './indexes';
import type { ListOptions, ListResult } from './query';
import type { Watcher } from './watch';

/**
 * A resource type's name as storage knows it: the qualified resource,
 * `<plural>.<group>` for models (`persons.example.com`) and the bare plural for
 * the core group (`roles`). Every key of one type shares one Redis hash tag.
 */
export type ResourceType = string;

/**
 * One stored object as `Storage.getStored` answers it: its JSON text, exactly what `JSON.stringify` of the object
 * `get` answers would be (parsing it gives that object), or the object where the store keeps no such text.
 */
export type StoredRead = { json: string } | { object: ApiObject };

/**
 * Conditions a write must meet. Each field that is set must equal the stored
 * object's; otherwise the write fails with a Conflict and changes nothing.
 */
export interface Preconditions {
  /** The object's `metadata.version` (integer, +1 per write). */
  version?: number;
  /** The object's `metadata.resourceVersion`. */
  resourceVersion?: string;
  /** The object's `metadata.uid`: guards against a delete-and-recreate under the same name. */
  uid?: string;
}

/** Options shared by the writing verbs. */
export interface WriteOptions {
  /** Run every check (existence, preconditions, unique indexes) and return the result, but write nothing. */
  dryRun?: boolean;
}

/**
 * Computes the next state of an object from its current state. It may be
 * called more than once (see `Storage.update`), so it must be a pure function
 * of its argument. It receives a private deep copy that it may change and
 * return. Throwing aborts the update with that error.
 */
export type MutateFn = (current: ApiObject) => ApiObject | Promise<ApiObject>;

/** How far a type's index builds have come. */
export interface IndexStatus {
  /** True when every declared index is built and queries on any of them are answered. */
  ready: boolean;
  /** Indexes still being built, with the objects done so far out of the objects to do. */
  building: { name: string; done: number; total: number }[];
}

/** Called as an index build makes progress, e.g. to draw a progress bar. */
export type IndexProgress = (progress: { type: ResourceType; index: string; done: number; total: number }) => void;

/**
 * The one storage interface (docs/storage.md). Backends: Redis (`redis://`,
 * `rediss://`), the durable embedded one (`file://<dir>`) and the in-process
 * one (`memory://`); all pass the conformance suite in `pkg/storage/testing`.
 *
 * Objects are JSON documents keyed by (type, `metadata.name`). Each type has its
 * own revision counter: every write bumps it by one and stamps the new value on
 * the written object as `metadata.resourceVersion`, and every write appends one
 * change event to the type's change log, which `watch` reads.
 *
 * Objects returned by any method belong to the caller (deep copies), except
 * watch events, whose objects are shared by every watcher and must not be mutated.
 */
export interface Storage {
  /**
   * Declares a type and its indexes (the defaults of `DEFAULT_INDEXES` are always
   * added). Idempotent; call it again with a new list to add or drop indexes.
   * Index functions run in this process, so every process that writes a type
   * must define it with the same indexes.
   *
   * Indexes new to a type that already holds objects are built for those
   * objects in batches, reporting to `onProgress`; until an index is built,
   * `list` calls that filter or sort on it fail with Unavailable. The returned
   * promise resolves once the definition is recorded, before the build ends;
   * `indexStatus` and `whenIndexesReady` follow the build.
   */
  defineType(type: ResourceType, indexes: IndexSpec[], onProgress?: IndexProgress): Promise<void>;

  /** The build state of a type's indexes. Unknown types are NotFound. */
  indexStatus(type: ResourceType): IndexStatus;

  /** Resolves when every index of the type is built. */
  whenIndexesReady(type: ResourceType): Promise<void>;

  /**
   * Stores a new object and returns it as stored. Fills `metadata.uid`,
   * `creationTimestamp`, `generation: 1`, `version: 1` and `resourceVersion`,
   * replacing any client values; clears `deletionTimestamp`. When `name` is
   * absent, `generateName` plus five random characters names it.
   *
   * Fails with AlreadyExists when the name is taken, and with Conflict when a
   * unique index value is taken by another object (the error names the index
   * and value).
   */
  create(type: ResourceType, object: ApiObject, options?: WriteOptions): Promise<ApiObject>;

  /** Returns the stored object. Fails with NotFound when it is absent. */
  get(type: ResourceType, name: string): Promise<ApiObject>;

  /**
   * `get`, answered as the object's JSON text where the store holds exactly that text (a reader that only passes the
   * object on need not parse it), else as the object; one read either way. Fails with NotFound when it is absent.
   * Optional: a store without it is read with `get`.
   */
  getStored?(type: ResourceType, name: string): Promise<StoredRead>;

  /**
   * Answers a query from the indexes, never by loading every object: label and
   * field requirements (ANDed), sort keys, and one page. Returns the page's
   * items, the number of matching objects, and the revision it read at (one
   * atomic read: every item and the total are as of that revision).
   *
   * Fails with Invalid when a field requirement or sort key names no index
   * (the message names it and lists the type's indexes) or when the continue
   * token is malformed, and with Unavailable when an index
   * it needs is still being built.
   */
  list(type: ResourceType, options?: ListOptions): Promise<ListResult>;

  /**
   * Compare-and-swap update. Reads the current object, checks `preconditions`
   * against it, passes a copy to `mutate`, and writes the result only if the
   * object has not changed since it was read.
   *
   * - With preconditions: a stale `version`/`resourceVersion`/`uid` is a Conflict;
   *   a concurrent write between read and write is a Conflict too (no retry).
   * - Without preconditions: a concurrent write makes it read again and call
   *   `mutate` again, until it succeeds.
   *
   * The server-owned fields of the result are the storage's: `uid` and
   * `creationTimestamp` are kept from the current object; `deletionTimestamp`
   * is kept too, except that a mutation may set it when it is unset (it is
   * never moved or cleared); `version` is +1, `resourceVersion` is the new
   * revision, and `generation` is +1 only when something outside `metadata`
   * and `status` changed. When the result equals the current object nothing is
   * written and the current object is returned (no revision, no event).
   *
   * Fails with NotFound when the object is absent, Conflict as above or when a
   * unique index value is taken.
   */
  update(
    type: ResourceType,
    name: string,
    mutate: MutateFn,
    preconditions?: Preconditions,
    options?: WriteOptions,
  ): Promise<ApiObject>;

  /**
   * Removes the object and its index entries, and returns its last state
   * carrying the revision of the removal as `resourceVersion`. Fails with
   * NotFound when absent and Conflict when a precondition does not hold.
   * (Two-step deletion with finalizers is built above storage.)
   */
  delete(type: ResourceType, name: string, preconditions?: Preconditions, options?: WriteOptions): Promise<ApiObject>;

  /**
   * Watches a type's changes. Without `fromRevision`: every change made after
   * the call. With it: every change after that revision, in revision order,
   * none lost, none duplicated, then the live changes. A `fromRevision` older
   * than the retained change log makes the iteration throw Expired; so does a
   * watcher that falls more than its buffer behind the live changes.
   * Connection loss to the backend is retried internally; the watch resumes
   * after the last revision it delivered.
   */
  watch(type: ResourceType, options?: { fromRevision?: string }): Watcher;

  /** The type's current revision ("0" before its first write). */
  currentRevision(type: ResourceType): Promise<string>;

  /** True when the backend can serve requests now (for `/readyz`). */
  ping(): Promise<boolean>;

  /**
   * The memory the backend's server reports in use, in bytes (Redis: `used_memory`, summed over a Cluster's
   * masters), read at most every few seconds; undefined before a first reading. Absent where there is no such
   * server (memory, file).
   */
  usedMemoryBytes?(): Promise<number | undefined>;

  /** Ends every watch and releases connections. */
  close(): Promise<void>;
}

/** Options every backend accepts besides its URL. */
export interface StorageOptions {
  /** Changes kept replayable per type (apiserver `--watch-retention`), default 100000. */
  watchRetention?: number;
  /** Events a watcher may have queued before it is ended with Expired, default 10000. */
  watchBuffer?: number;
  /** Objects per batch when building an index, default 500. */
  indexBuildBatch?: number;
  /**
   * Redis only: the work one list script may do, in index members read (an object's stored index values
   * decoded counts as 32), default 2000. A query whose plan needs more (a shape that is not O(page),
   * docs/storage.md) is read in slices of this much work, several short scripts.
   */
  listSlice?: number;
  /** Redis only: a prefix for every key, so that tests can share one Redis. Default `svc`. */
  keyPrefix?: string;
  /**
   * Redis only: how index sets are kept (ADR 0025). `plain` (the default): one sorted set per index.
   * `bucketed`: small sorted sets under a directory, which Redis keeps compact: about a third less memory
   * per object, twice the Redis time per index member written. Changing it rebuilds every index once.
   */
  indexLayout?: 'plain' | 'bucketed';
  /**
   * Redis only: how objects are kept (ADR 0026). `none` (the default): their JSON. `deflate`: deflated against a
   * per-type dictionary (the type's first object), a few dozen bytes for objects of one shape, at some
   * microseconds per object read and written. Objects in either form read back in either setting.
   */
  compression?: 'none' | 'deflate';
  /**
   * Redis only: how long a write waits for a replica (`?ack=replica`) or the append-only file (`?ack=aof`) to
   * have it before it is Unavailable with its outcome unknown (the apiserver passes its `--request-timeout`),
   * default 60000 ms.
   */
  ackTimeoutMs?: number;
  /** Where the storage logs (e.g. a lost Redis); default the process's logger. */
  log?: Logger;
}
