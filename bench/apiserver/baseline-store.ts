import type { ApiObject } from '../../pkg/api/object';
import { CREATION_INDEX, type IndexSpec } from '../../pkg/storage/indexes';
import { stampCreate } from '../../pkg/storage/objects';
import { connectClient } from '../../pkg/storage/redis/connection';
import { orderMember, scriptIndexList, typeKeys, type TypeKeys } from '../../pkg/storage/redis/keys';
import { computeIndexValues, splitAtRevision, storedIndexValues } from '../../pkg/storage/redis/object-codec';
import { defineScripts, type ScriptedRedis } from '../../pkg/storage/redis/scripts';

/** What the baseline server stores to: the apiserver's Redis, key prefix and type, and the type's indexes. */
export interface BaselineStoreConfig {
  /** e.g. `redis://127.0.0.1:6379/0` (no query parameters). */
  redisUrl: string;
  keyPrefix: string;
  /** The storage type, e.g. `persons.example.com`. */
  type: string;
  /** Every index of the type, defaults included, in the apiserver's order. */
  indexes: IndexSpec[];
  /** Stream entries kept per type, as the apiserver's `--watch-retention`. */
  watchRetention: number;
}

/** The outcome of a baseline create: the stored object, or that its name is taken. */
export type BaselineCreate = { created: true; object: ApiObject } | { created: false };

/**
 * The least an HTTP server must do to serve the apiserver's reads and
 * creates from the same Redis data: no validation, no API machinery.
 *
 * - `objectJson`: one `HGET` of the objects hash (the stored JSON as is).
 * - `pageJson`: the newest `limit` names from the creation-time index
 *   (the apiserver's default order) beside the type's revision, then one
 *   `HMGET`; the list envelope by string concatenation.
 * - `create`: the storage backend's own write script (`svcWrite`, loaded
 *   with ioredis `defineCommand`), called with the arguments the backend
 *   passes: stamped object split at its revision, index values, retention,
 *   the index list, the value set key prefix.
 */
export class BaselineStore {
  private readonly keys: TypeKeys;
  private readonly indexList: string;

  private constructor(
    private readonly client: ScriptedRedis,
    private readonly config: BaselineStoreConfig,
  ) {
    this.keys = typeKeys(config.keyPrefix, config.type);
    this.indexList = JSON.stringify(scriptIndexList(config.indexes));
  }

  /** Connects with the backend's client options and scripts. */
  static async open(config: BaselineStoreConfig): Promise<BaselineStore> {
    const client = await connectClient({ kind: 'single', url: config.redisUrl }, 'svc-bench-baseline');
    return new BaselineStore(defineScripts(client, 'plain'), config);
  }

  /** The stored JSON of object `name`, or null. */
  objectJson(name: string): Promise<string | null> {
    return this.client.hget(this.keys.objects, name);
  }

  /** A list envelope with the `limit` most recently created objects. */
  async pageJson(apiVersion: string, listKind: string, limit: number): Promise<string> {
    const [members, revision] = await Promise.all([
      this.client.zrevrangebylex(this.keys.index(CREATION_INDEX), '+', '-', 'LIMIT', 0, limit),
      this.client.get(this.keys.revision),
    ]);
    const names = members.map((m) => m.slice(m.indexOf('\0') + 1));
    const items = names.length ? await this.client.hmget(this.keys.objects, ...names) : [];
    return (
      `{"apiVersion":"${apiVersion}","kind":"${listKind}","metadata":{"resourceVersion":"${revision ?? '0'}"},` +
      `"items":[${items.filter((i): i is string => i !== null).join(',')}]}`
    );
  }

  /** Creates `object` under its `metadata.name` through the backend's write script. */
  async create(object: ApiObject): Promise<BaselineCreate> {
    const name = object.metadata.name ?? '';
    const stamped = stampCreate(object, name, '');
    const values = computeIndexValues(this.config.indexes, stamped);
    const { head, tail } = splitAtRevision(stamped);
    const k = this.keys;
    const reply = (await this.client.svcWrite(
      5 + this.config.indexes.length,
      k.objects,
      k.indexValues,
      k.revision,
      k.stream,
      ...this.config.indexes.map((s) => k.index(s.name)),
      k.indexStates,
      'create',
      name,
      '',
      head,
      tail,
      storedIndexValues(values),
      this.config.watchRetention,
      0,
      this.indexList,
      orderMember(values[CREATION_INDEX]?.[0], name),
    )) as string[];
    if (reply[0] === 'EXISTS') return { created: false };
    if (reply[0] !== 'OK') throw new Error(`the write script answered ${reply.join(' ')}`);
    stamped.metadata.resourceVersion = reply[1];
    return { created: true, object: stamped };
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    await this.client.quit();
  }
}
