import type { ApiObject } from '../../api/object';
import type { Backoff } from '../../util/backoff';
import { logger } from '../../util/log';
import { isStorageError } from '../errors';
import type { IndexSpec } from '../indexes';
import type { IndexProgress, ResourceType } from '../interface';
import { redisRetryBackoff, translateError } from './connection';
import { isOrdered, type TypeKeys } from './keys';
import { isPairIndex } from '../pair-indexes';
import { storableValues } from './object-codec';
import type { ScriptedRedis } from './scripts';
import type { TypeState } from './type-state';

const log = logger.child({ component: 'redis-index-builder' });

/** What one index build works with. */
export interface IndexBuild {
  client: ScriptedRedis;
  type: ResourceType;
  keys: TypeKeys;
  spec: IndexSpec;
  state: TypeState;
  batchSize: number;
  /** The objects stored values hold (the JSON, or a compressed form: ADR 0026). */
  read(stored: string[]): Promise<ApiObject[]>;
  /** The objects to do, as counted when the build was decided (objects created since are done too). */
  total: number;
  onProgress?: IndexProgress;
  /** Aborted when the storage closes. */
  signal: AbortSignal;
}

/**
 * Builds an index for the objects a type already holds: walks the objects
 * hash in batches (`HSCAN`: no index is needed, so every index, the name index
 * too, can be built this way; an object the scan returns twice is entered
 * twice, which changes nothing), computes the values of each batch here and enters them with one
 * script per batch, which skips every object written since it was read (that
 * write indexed it already). Reports progress after each batch, then marks
 * the index ready in Redis. A batch that fails because Redis is unreachable
 * is retried; the build stops early if the index is dropped or the storage
 * closes (a later `defineType` resumes it: the state stays `building`).
 */
export async function buildIndex(build: IndexBuild): Promise<void> {
  const { client, keys, spec, state, type } = build;
  const backoff = redisRetryBackoff();
  let total = build.total;
  let done = 0;
  const scan = new ObjectScan(client, keys.objects, build.batchSize);
  state.progress(spec.name, 0, total);
  try {
    for (;;) {
      if (build.signal.aborted || !state.declares(spec.name)) return;
      try {
        const batch = await scan.peek();
        if (batch.length === 0) break;
        const objects = await build.read(batch.map(([, stored]) => stored));
        const args: string[] = [];
        batch.forEach(([name], at) => {
          const object = objects[at];
          args.push(name, object.metadata.resourceVersion ?? '', JSON.stringify(valuesOf(spec, object)));
        });
        await client.svcBuildBatch(
          2,
          keys.indexValues,
          keys.index(spec.name),
          spec.name,
          ...layoutFlags(spec),
          ...args,
        );
        backoff.reset();
        scan.consume(batch.length);
        done += batch.length;
        total = Math.max(total, done);
        state.progress(spec.name, done, total);
        build.onProgress?.({ type, index: spec.name, done, total });
      } catch (err) {
        const error = translateError(err, `build index ${spec.name} of ${type}`);
        if (!isStorageError(error, 'Unavailable')) {
          // Not Redis being away but a bug: stop; the index stays `building` and a later defineType retries.
          log.error({ err: error, type, index: spec.name }, 'index build failed');
          return;
        }
        await backoff.wait(build.signal);
      }
    }
    await finish(build, backoff);
  } finally {
    state.finish(spec.name);
  }
}

/**
 * A type's objects, `[name, JSON]`, in batches of at most `size`, read with
 * `HSCAN` (which may answer more than it is asked for). A batch stays the
 * next one until it is consumed, so that a failed batch is tried again.
 */
class ObjectScan {
  private cursor = '0';
  private started = false;
  private readonly pending: [string, string][] = [];

  constructor(
    private readonly client: ScriptedRedis,
    private readonly key: string,
    private readonly size: number,
  ) {}

  /** The next batch (empty when the scan is over). */
  async peek(): Promise<[string, string][]> {
    while (this.pending.length < this.size && !(this.started && this.cursor === '0')) {
      const [next, fields] = await this.client.hscan(this.key, this.cursor, 'COUNT', this.size);
      this.started = true;
      this.cursor = next;
      for (let at = 0; at < fields.length; at += 2) this.pending.push([fields[at], fields[at + 1]]);
    }
    return this.pending.slice(0, this.size);
  }

  /** Drops the first `count` objects: they are done. */
  consume(count: number): void {
    this.pending.splice(0, count);
  }
}

/** Marks the index ready in Redis, retrying while Redis is unreachable. */
async function finish(build: IndexBuild, backoff: Backoff): Promise<void> {
  while (!build.signal.aborted && build.state.declares(build.spec.name)) {
    try {
      await build.client.svcFinishBuild(1, build.keys.indexStates, build.spec.name);
      return;
    } catch {
      await backoff.wait(build.signal);
    }
  }
}

/** The object's values; an index function that throws on an old object leaves it out of the index. */
function valuesOf(spec: IndexSpec, object: ApiObject): string[] {
  try {
    return storableValues(spec, object);
  } catch {
    return [];
  }
}

/** The index's layout as the build script takes it: ordered, then sparse (a pair index), each 1 or 0. */
const layoutFlags = (spec: IndexSpec): [number, number] => [isOrdered(spec) ? 1 : 0, isPairIndex(spec) ? 1 : 0];
