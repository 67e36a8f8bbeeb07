import type { ApiObject } from '../../api/object';
import { StorageError, alreadyExists, notFound, staleConflict, uniqueConflict, unavailable } from '../errors';
import { CREATION_INDEX, DEFAULT_INDEXES, type IndexSpec } from '../indexes';
import { storedIndexes } from '../pair-indexes';
import type {
  IndexProgress,
  IndexStatus,
  MutateFn,
  Preconditions,
  ResourceType,
  StoredRead,
  Storage,
  StorageOptions,
  WriteOptions,
} from '../interface';
import { clone, generateName, stampCreate, stampUpdate } from '../objects';
import { BatchedHashGets } from './batched-hash-gets';
import { requestedName, requireMetadata } from '../written-objects';
import { hasPreconditions, meetsPreconditions } from '../preconditions';
import type { ListOptions, ListResult } from '../query';
import type { WatchEvent, Watcher } from '../watch';
import { WatcherQueue } from '../watcher-queue';
import { failFastOptions, newRedisClient, redisCall, type RedisClient, type WriteAck } from './connection';
import type { AcknowledgedWrites } from './acknowledged-writes';
import type { RedisTopology } from './topology';
import { encodeContinue, type ListPosition } from '../continue-token';
import { buildIndex } from './index-builder';
import { isOrdered, orderMember, scriptIndexList, typeKeys, type IndexLayout, type TypeKeys } from './keys';
import { planList, type ListScriptQuery, type PlannedList } from './list-query';
import { SliceInterrupted, slicedList, type ListCall, type SlicedPage } from './sliced-list';
import { computeIndexValues, splitAtRevision, storedIndexValues } from './object-codec';
import { indexValueOfStored } from './stored-values';
import type { ScriptedRedis } from './scripts';
import { StoredObjects, type ObjectCompression } from './stored-objects';
import { TypeState } from './type-state';
import { WatchHub } from './watch-hub';
import { UsedMemory } from './used-memory';
import { RedisOutageLog } from './outage-log';
import { logger } from '../../util/log';

/** Attempts at a free generated name before create gives up with AlreadyExists. */
const GENERATE_NAME_ATTEMPTS = 5;
/** Blocking reads may take this much longer than asked before the reader's connection is deemed lost. */
const BLOCKING_GRACE_MS = 10_000;

const DEFAULT_INDEX_NAMES: ReadonlySet<string> = new Set(DEFAULT_INDEXES.map((s) => s.name));

/** The settings a RedisStorage runs with (StorageOptions with defaults applied, plus where Redis is). */
export interface RedisStorageSettings {
  /** Where Redis is (the URL without our own query parameters). */
  topology: RedisTopology;
  /** When a write is answered (ADR 0034). */
  ack: WriteAck;
  /** How long a write waits for its acknowledgement (`replica`, `aof`) before it is Unavailable. */
  ackTimeoutMs: number;
  keyPrefix: string;
  /** How index sets are kept (StorageOptions.indexLayout). */
  indexLayout: IndexLayout;
  /** How objects are kept (StorageOptions.compression). */
  compression: ObjectCompression;
  watchRetention: number;
  watchBuffer: number;
  indexBuildBatch: number;
  /** Index members one list script reads at most (StorageOptions.listSlice). */
  listSlice: number;
  /** Logs each Redis outage once. */
  outages: RedisOutageLog;
}

/** The settings for StorageOptions, with the defaults of the interface. */
export function redisSettings(
  target: Pick<RedisStorageSettings, 'topology' | 'keyPrefix' | 'indexLayout' | 'compression' | 'ack'>,
  options: StorageOptions,
): RedisStorageSettings {
  return {
    ...target,
    watchRetention: positive(options.watchRetention, 100_000, 'watchRetention'),
    watchBuffer: positive(options.watchBuffer, 10_000, 'watchBuffer'),
    indexBuildBatch: positive(options.indexBuildBatch, 500, 'indexBuildBatch'),
    listSlice: positive(options.listSlice, 2000, 'listSlice'),
    ackTimeoutMs: positive(options.ackTimeoutMs, 60_000, 'ackTimeoutMs'),
    outages: new RedisOutageLog(options.log ?? logger.child({ component: 'redis-storage' })),
  };
}

/**
 * The production backend (`redis://`, `rediss://`): objects, indexes and
 * change streams in Redis, laid out by ./keys.ts. Every write is one Lua
 * script (checks, object, index entries, revision, stream entry), so no
 * reader ever sees half a write; `list` is one read-only script answered
 * from the index sorted sets; `watch` is served by one reader per type (see
 * ./stream-reader.ts). Any number of processes may share one Redis, provided
 * they define each type with the same indexes.
 *
 * A verb called on a type that was never defined in this process uses the
 * default indexes; `indexStatus` and `whenIndexesReady` are NotFound for it.
 *
 * @example
 * const storage = await openStorage('redis://127.0.0.1:6379/0', { keyPrefix: 'svc' });
 * await storage.defineType('persons.example.com', [{ name: 'spec.email', unique: true, indexFunc: (o) => o.spec.email }]);
 */
export class RedisStorage implements Storage {
  private readonly types = new Map<ResourceType, TypeState>();
  private readonly hub: WatchHub;
  private readonly closing = new AbortController();
  private readonly objects: StoredObjects;
  private readonly memory: UsedMemory;
  /** The single-object reads (`get`, `getStored`), gathered per event loop turn. */
  private readonly hashGets: BatchedHashGets;

  constructor(
    private readonly client: ScriptedRedis,
    private readonly settings: RedisStorageSettings,
    private readonly writes: AcknowledgedWrites,
  ) {
    this.objects = new StoredObjects(client, (type) => this.keys(type), settings.compression);
    this.memory = new UsedMemory(client);
    this.hashGets = new BatchedHashGets(client);
    this.hub = new WatchHub({
      client,
      keysOf: (type) => this.keys(type),
      openConnection: (type) => this.openReaderConnection(type),
      watchBuffer: settings.watchBuffer,
      outages: settings.outages,
    });
    // ioredis reconnects by itself; these say when it lost Redis and when it has it again.
    client.on('close', () => settings.outages.lost('commands', new Error('the connection closed')));
    client.on('ready', () => settings.outages.back('commands'));
  }

  async defineType(type: ResourceType, indexes: IndexSpec[], onProgress?: IndexProgress): Promise<void> {
    this.checkOpen();
    const reserved = indexes.find((spec) => spec.name.startsWith('~'));
    if (reserved) {
      // Stored index values use such names for the default indexes (storedIndexValues in ./object-codec.ts).
      throw new StorageError('Invalid', `index "${reserved.name}": a name starting with "~" is reserved`, {
        type,
        index: reserved.name,
      });
    }
    const specs = storedIndexes(indexes);
    const state = this.state(type);
    // From now on every write of this process maintains every declared index.
    state.specs = specs;
    state.defined = true;
    const keys = this.keys(type);
    const recorded = await redisCall(`define ${type}`, () => this.client.hkeys(keys.indexStates));
    const wanted = new Set(specs.map((s) => s.name));
    const drop = recorded.filter((name) => !wanted.has(name));
    const add = specs.map((s) => [s.name, DEFAULT_INDEX_NAMES.has(s.name) ? 1 : 0, isOrdered(s) ? 1 : 0]);
    const [count, ...states] = (await redisCall(`define ${type}`, () =>
      this.client.svcDefineIndexes(
        3 + add.length + drop.length,
        keys.objects,
        keys.indexStates,
        keys.layouts,
        ...[...specs.map((s) => s.name), ...drop].map((name) => keys.index(name)),
        JSON.stringify({
          add,
          drop,
          layout: this.settings.indexLayout,
          prefix: keys.legacyValueSetPrefix,
          plain: keys.indexPrefixes.plain,
          bucketed: keys.indexPrefixes.bucketed,
        }),
      ),
    )) as [number, ...string[]];
    const common = {
      client: this.client,
      type,
      keys,
      state,
      batchSize: this.settings.indexBuildBatch,
      read: (stored: string[]) => this.objects.read(type, stored),
      signal: this.closing.signal,
    };
    specs.forEach((spec, at) => {
      if (states[at] === 'building' && !state.isBuilding(spec.name)) {
        void buildIndex({ ...common, spec, onProgress, total: count });
      }
    });
  }

  indexStatus(type: ResourceType): IndexStatus {
    return this.definedState(type).status();
  }

  whenIndexesReady(type: ResourceType): Promise<void> {
    try {
      return this.definedState(type).whenReady();
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  async create(type: ResourceType, object: ApiObject, options: WriteOptions = {}): Promise<ApiObject> {
    this.checkOpen();
    const { given, prefix } = requestedName(type, object);
    for (let attempt = 1; ; attempt++) {
      const name = given ?? generateName(prefix);
      const stamped = stampCreate(object, name, '');
      const reply = await this.write(type, 'create', name, '', stamped, options);
      if (reply[0] === 'OK' || reply[0] === 'DRY') return stamped;
      // A generated name that is taken is generated again, a few times.
      const retry = reply[0] === 'EXISTS' && given === undefined && attempt < GENERATE_NAME_ATTEMPTS;
      if (!retry) throw this.writeFailure(type, name, reply);
    }
  }

  /** One object. The gets of one event loop turn on one type go to Redis as one HMGET (BatchedHashGets). */
  async get(type: ResourceType, name: string): Promise<ApiObject> {
    this.checkOpen();
    const json = await redisCall(`get ${type} "${name}"`, () => this.hashGets.get(this.keys(type).objects, name));
    if (json === null) throw notFound(type, name);
    return this.objects.readOne(type, json);
  }

  /**
   * `get` as `Storage.getStored` answers it, batched as `get` is: a plugin's worker sends the reads of its handlers
   * together, and concurrent HTTP GETs of a type often fall in one turn; each would otherwise cost a command's socket
   * write of its own.
   */
  async getStored(type: ResourceType, name: string): Promise<StoredRead> {
    this.checkOpen();
    const stored = await redisCall(`get ${type} "${name}"`, () => this.hashGets.get(this.keys(type).objects, name));
    if (stored === null) throw notFound(type, name);
    const json = this.objects.json(stored);
    return json === undefined ? { object: await this.objects.readOne(type, stored) } : { json };
  }

  async list(type: ResourceType, options: ListOptions = {}): Promise<ListResult> {
    this.checkOpen();
    const plan = planList(type, this.state(type).specs, options);
    const call: ListCall = (indexKeys, query) => this.listCall(type, indexKeys, query);
    const reply = await call(plan.indexKeys, { ...plan.query, budget: this.settings.listSlice });
    if (reply[0] === 'BUILDING') throw building(type, reply);
    if (reply[0] === 'SLICE') return this.slicedPage(type, plan, call);
    const [, revision, total, position, ...items] = reply;
    this.state(type).saw(revision);
    const at = position ? (JSON.parse(String(position)) as ListPosition) : undefined;
    const objects = await this.objects.read(type, items.map(String));
    return listResult(plan, { revision: String(revision), total: Number(total), position: at }, objects);
  }

  /** A list read in slices (its plan would hold Redis too long): several short scripts, then the page's objects. */
  private async slicedPage(type: ResourceType, plan: PlannedList, call: ListCall): Promise<ListResult> {
    let page: SlicedPage;
    try {
      page = await slicedList(plan, this.settings.listSlice, call);
    } catch (err) {
      if (err instanceof SliceInterrupted) throw building(type, err.reply);
      throw err;
    }
    const objects = this.keys(type).objects;
    const items =
      page.names.length === 0 ? [] : await redisCall(`list ${type}`, () => this.client.hmget(objects, ...page.names));
    return listResult(
      plan,
      page,
      await this.objects.read(
        type,
        items.filter((json): json is string => json !== null),
      ),
    );
  }

  private async listCall(
    type: ResourceType,
    indexKeys: string[],
    query: ListScriptQuery,
  ): Promise<(string | number)[]> {
    const keys = this.keys(type);
    return (await redisCall(`list ${type}`, () =>
      this.client.svcList(
        4 + indexKeys.length,
        keys.objects,
        keys.indexValues,
        keys.revision,
        keys.indexStates,
        ...indexKeys.map((name) => keys.index(name)),
        JSON.stringify(query),
      ),
    )) as (string | number)[];
  }

  async update(
    type: ResourceType,
    name: string,
    mutate: MutateFn,
    preconditions?: Preconditions,
    options: WriteOptions = {},
  ): Promise<ApiObject> {
    this.checkOpen();
    const conditional = hasPreconditions(preconditions);
    for (;;) {
      const current = await this.get(type, name);
      if (!meetsPreconditions(current, preconditions)) throw staleConflict(type, name);
      const next = requireMetadata(type, await mutate(clone(current)), `the update of ${type} "${name}"`);
      const stamped = stampUpdate(current, next, '');
      if (stamped === undefined) return current;
      const result = clone(stamped);
      const reply = await this.write(type, 'update', name, current.metadata.resourceVersion ?? '', result, options);
      if (reply[0] === 'OK' || reply[0] === 'DRY') return result;
      // Without preconditions an update that lost a race is tried again on the new state.
      if (reply[0] !== 'STALE' || conditional) throw this.writeFailure(type, name, reply);
    }
  }

  async delete(
    type: ResourceType,
    name: string,
    preconditions?: Preconditions,
    options: WriteOptions = {},
  ): Promise<ApiObject> {
    this.checkOpen();
    const conditional = hasPreconditions(preconditions);
    // A compressed object (ADR 0026) is read first: the change stream gets its JSON.
    let read = conditional || this.objects.compression !== 'none';
    for (;;) {
      const input = read ? await this.deleteInput(type, name, preconditions) : { expected: '', json: '' };
      const reply = await this.deleteCall(type, name, input, options);
      if (reply[0] === 'OK' || reply[0] === 'DRY') return this.deleted(type, reply);
      // Read only for its JSON, the object changed since: no conflict, read it again.
      const again = reply[0] === 'COMPRESSED' || (reply[0] === 'STALE' && !conditional);
      if (!again) throw this.deleteFailure(type, name, reply);
      read = true;
    }
  }

  private deleteFailure(type: ResourceType, name: string, reply: string[]): Error {
    return reply[0] === 'STALE' ? staleConflict(type, name) : this.writeFailure(type, name, reply);
  }

  /** The last state a delete (or a dry run of one: at the revision it would have had) answered. */
  private async deleted(type: ResourceType, reply: string[]): Promise<ApiObject> {
    this.state(type).saw(reply[1]);
    const revision = reply[0] === 'DRY' ? String(Number(reply[1]) + 1) : reply[1];
    return this.objects.readOne(type, reply[2], revision);
  }

  /** What a delete that reads first sends: the revision it read, and the object's JSON for the change stream. */
  private async deleteInput(
    type: ResourceType,
    name: string,
    preconditions: Preconditions | undefined,
  ): Promise<{ expected: string; json: string }> {
    const current = await this.get(type, name);
    if (!meetsPreconditions(current, preconditions)) throw staleConflict(type, name);
    return { expected: current.metadata.resourceVersion ?? '', json: JSON.stringify(current) };
  }

  /** One call of the delete script (`json`: the object's JSON for the change stream, or `''`). */
  private async deleteCall(
    type: ResourceType,
    name: string,
    input: { expected: string; json: string },
    options: WriteOptions,
  ): Promise<string[]> {
    const keys = this.keys(type);
    const specs = this.state(type).specs;
    return this.writes.run(`delete ${type} "${name}"`, 'svcDelete', [
      4 + specs.length,
      keys.objects,
      keys.indexValues,
      keys.revision,
      keys.stream,
      ...specs.map((s) => keys.index(s.name)),
      name,
      input.expected,
      this.settings.watchRetention,
      options.dryRun ? 1 : 0,
      JSON.stringify(scriptIndexList(specs)),
      input.json,
      this.state(type).highestRevision,
    ]);
  }

  watch(type: ResourceType, options: { fromRevision?: string } = {}): Watcher {
    if (this.closing.signal.aborted) return failedWatcher(unavailable('the Redis storage is closed'));
    return this.hub.watch(type, options.fromRevision);
  }

  async currentRevision(type: ResourceType): Promise<string> {
    this.checkOpen();
    const revision = await redisCall(`revision of ${type}`, () => this.client.get(this.keys(type).revision));
    this.state(type).saw(revision ?? undefined);
    return revision ?? '0';
  }

  async ping(): Promise<boolean> {
    if (this.closing.signal.aborted) return false;
    try {
      return (await this.client.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  usedMemoryBytes(): Promise<number | undefined> {
    return this.closing.signal.aborted ? Promise.resolve(undefined) : this.memory.bytes();
  }

  /** Ends every watch, stops index builds (they resume on a later defineType) and closes the connection. */
  async close(): Promise<void> {
    if (this.closing.signal.aborted) return;
    this.closing.abort();
    this.settings.outages.stop();
    this.hub.close();
    this.writes.close();
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  /**
   * Runs the write script for a create or update of `object`, whose
   * resourceVersion the script fills in. On success (or dry run) stamps the
   * revision on `object` and returns the reply.
   */
  private async write(
    type: ResourceType,
    mode: 'create' | 'update',
    name: string,
    expected: string,
    object: ApiObject,
    options: WriteOptions,
  ): Promise<string[]> {
    const keys = this.keys(type);
    const specs = this.state(type).specs;
    const values = computeIndexValues(specs, object);
    const { head, tail } = splitAtRevision(object);
    const parts = this.objects.writeParts(type, object);
    const stored = Array.isArray(parts) ? parts : await parts;
    const reply = await this.writes.run(`${mode} ${type} "${name}"`, 'svcWrite', [
      5 + specs.length,
      keys.objects,
      keys.indexValues,
      keys.revision,
      keys.stream,
      ...specs.map((s) => keys.index(s.name)),
      keys.indexStates,
      mode,
      name,
      expected,
      head,
      tail,
      storedIndexValues(values),
      this.settings.watchRetention,
      options.dryRun ? 1 : 0,
      JSON.stringify(scriptIndexList(specs)),
      orderMember(values[CREATION_INDEX]?.[0], name),
      ...stored,
      this.state(type).highestRevision,
    ]);
    this.state(type).saw(reply[0] === 'OK' || reply[0] === 'DRY' ? reply[1] : undefined);
    // A dry run reports the revision now: the one it would have written is the next.
    if (reply[0] === 'OK') object.metadata.resourceVersion = reply[1];
    if (reply[0] === 'DRY') object.metadata.resourceVersion = String(Number(reply[1]) + 1);
    return reply;
  }

  /** The error for a write script's refusal. */
  private writeFailure(type: ResourceType, name: string, reply: string[]): Error {
    switch (reply[0]) {
      case 'NOTFOUND':
        return notFound(type, name);
      case 'EXISTS':
        return alreadyExists(type, name);
      case 'STALE':
        return staleConflict(type, name);
      case 'UNIQUE':
        return uniqueConflict(type, name, reply[1], indexValueOfStored(reply[1], reply[2]));
      default:
        return new Error(`internal: unexpected reply from a write script of ${type}: ${String(reply[0])}`);
    }
  }

  private keys(type: ResourceType): TypeKeys {
    return typeKeys(this.settings.keyPrefix, type, this.settings.indexLayout);
  }

  /** The type's state, with the default indexes when it was never defined. */
  private state(type: ResourceType): TypeState {
    let state = this.types.get(type);
    if (state === undefined) {
      state = new TypeState();
      this.types.set(type, state);
    }
    return state;
  }

  private definedState(type: ResourceType): TypeState {
    this.checkOpen();
    const state = this.types.get(type);
    if (state === undefined || !state.defined) {
      throw new StorageError('NotFound', `type ${type} is not defined`, { type });
    }
    return state;
  }

  /**
   * A connection of its own for one type's blocking stream reads; it
   * reconnects by itself. Its commands wait for it to be ready (the reader
   * has nothing better to do) and fail when an attempt to connect fails.
   * No ready check: the loop already retries a Redis still loading its data,
   * and ioredis leaves a 2 s timer behind when a connection is closed during
   * its ready check (a watch stopped at once), which holds the process open.
   */
  private openReaderConnection(type: ResourceType): RedisClient {
    const connection = newRedisClient(this.settings.topology, {
      ...failFastOptions(),
      lazyConnect: false,
      enableOfflineQueue: true,
      enableReadyCheck: false,
      connectionName: `svc-watch:${type}`.replace(/\s/g, '_'),
      blockingTimeout: 5_000 + BLOCKING_GRACE_MS,
    });
    connection.on('error', () => undefined);
    return connection;
  }

  private checkOpen(): void {
    if (this.closing.signal.aborted) throw unavailable('the Redis storage is closed');
  }
}

/** A watcher that has already ended with an error, which its first read throws. */
function failedWatcher(error: Error): Watcher {
  const queue = new WatcherQueue<WatchEvent>({ capacity: 1, overflowError: () => error });
  queue.fail(error);
  return queue;
}

/** A positive integer option with its default; anything else is a programming error. */
function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be an integer ≥ 1, not ${value}`);
  return value;
}

/** Unavailable: a list needs an index that is still being built (the script answered BUILDING). */
function building(type: ResourceType, reply: (string | number)[]): StorageError {
  const index = String(reply[1]);
  return new StorageError('Unavailable', `index "${index}" of ${type} is still being built`, {
    type,
    index,
    retryAfterSeconds: 1,
  });
}

/** A list's result from a page's revision, total, continue position and items' JSON. */
function listResult(
  plan: PlannedList,
  page: { revision: string; total: number; position: ListPosition | undefined },
  items: ApiObject[],
): ListResult {
  const result: ListResult = {
    items,
    total: page.total,
    revision: page.revision,
  };
  if (page.position) {
    const listed = plan.skipped + result.items.length;
    result.continue = encodeContinue(page.position, plan.fingerprint, listed);
    result.remainingItemCount = Math.max(0, result.total - listed);
  }
  return result;
}
