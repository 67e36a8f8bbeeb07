import { randomUUID } from 'node:crypto';
import type { ChainableCommander, Redis } from 'ioredis';
import type { ApiObject } from '../../pkg/api/object';
import { indexValues, type IndexSpec } from '../../pkg/storage';
import { isOrdered, orderMember } from '../../pkg/storage/redis/keys';
import { storedIndexValues } from '../../pkg/storage/redis/object-codec';
import type { TypeKeys } from '../../pkg/storage/redis';

/** What the writer last wrote for an object: it never reads Redis back. */
interface Written {
  object: ApiObject;
  json: string;
  values: Record<string, string[]>;
  /** `values` as JSON, as stored beside the revision and in the next update's stream entry. */
  valuesJson: string;
}

/**
 * The write baseline: the Redis commands one svc write leaves behind, in the
 * same key layout (pkg/storage/redis/keys.ts) but for the indexes, which are
 * plain sorted sets here (svc's are bucketed sets, ADR 0025: the same members,
 * spread over small sorted sets), sent as one bare pipeline per write, without
 * Lua, reads, existence or precondition checks. A create is
 * INCR of the revision, HSET of the object JSON and of its index values,
 * one ZADD per index and one XADD to the change stream; an update adds a ZREM
 * per index whose values changed and puts the previous index values in the
 * stream entry (field `p`), as svc's write script does. The revision is counted here rather than
 * read from INCR's reply; the writer keeps what it wrote instead of reading it.
 */
export class PipelinedWriter {
  private revision = 0;
  private readonly written = new Map<string, Written>();

  constructor(
    private readonly redis: Redis,
    private readonly keys: TypeKeys,
    private readonly specs: readonly IndexSpec[],
    private readonly retention: number,
  ) {}

  /** Writes a new object as svc would store it (uid, timestamps, generation, version, resourceVersion). */
  async create(object: ApiObject): Promise<void> {
    const revision = String(++this.revision);
    const stored: ApiObject = {
      ...object,
      metadata: {
        ...object.metadata,
        uid: randomUUID(),
        creationTimestamp: new Date().toISOString(),
        generation: 1,
        version: 1,
        resourceVersion: revision,
      },
    };
    const written = this.encode(stored);
    const name = nameOf(stored);
    const pipeline = this.redis.pipeline();
    this.writeObject(pipeline, name, revision, written);
    for (const spec of this.specs) {
      pipeline.zadd(this.keys.index(spec.name), ...scored(entries(written.values[spec.name], tailOf(spec, stored))));
    }
    pipeline.xadd(this.keys.stream, 'MAXLEN', '~', this.retention, `${revision}-0`, 't', 'ADDED', 'o', written.json);
    await execOrThrow(pipeline);
    this.written.set(name, written);
  }

  /**
   * Writes `mutate`'s result over an object this writer created, with
   * `version` and `generation` +1 (the benchmark's updates always change the spec).
   */
  async update(name: string, mutate: (current: ApiObject) => ApiObject): Promise<void> {
    const current = this.written.get(name);
    if (current === undefined) throw new Error(`the pipelined writer never created "${name}"`);
    const revision = String(++this.revision);
    const next = mutate(current.object);
    const meta = current.object.metadata;
    const stored: ApiObject = {
      ...next,
      metadata: {
        ...next.metadata,
        generation: (meta.generation ?? 0) + 1,
        version: (meta.version ?? 0) + 1,
        resourceVersion: revision,
      },
    };
    const written = this.encode(stored);
    const pipeline = this.redis.pipeline();
    this.writeObject(pipeline, name, revision, written);
    for (const spec of this.specs) {
      const key = this.keys.index(spec.name);
      const tail = tailOf(spec, stored);
      const now = entries(written.values[spec.name], tail);
      const kept = new Set(now.map((m) => m.toString('latin1')));
      const gone = entries(current.values[spec.name], tail).filter((member) => !kept.has(member.toString('latin1')));
      if (gone.length > 0) pipeline.zrem(key, ...gone);
      pipeline.zadd(key, ...scored(now));
    }
    pipeline.xadd(
      this.keys.stream,
      'MAXLEN',
      '~',
      this.retention,
      `${revision}-0`,
      't',
      'MODIFIED',
      'o',
      written.json,
      'p',
      current.valuesJson,
    );
    await execOrThrow(pipeline);
    this.written.set(name, written);
  }

  private encode(object: ApiObject): Written {
    const values: Record<string, string[]> = {};
    for (const spec of this.specs) values[spec.name] = indexValues(spec, object);
    return { object, json: JSON.stringify(object), values, valuesJson: storedIndexValues(values) };
  }

  /** INCR of the revision, the object JSON and its stored index values. */
  private writeObject(pipeline: ChainableCommander, name: string, revision: string, written: Written): void {
    pipeline.incr(this.keys.revision);
    pipeline.hset(this.keys.objects, name, written.json);
    pipeline.hset(this.keys.indexValues, name, `${revision}\n${written.valuesJson}`);
  }
}

/** The sentinel svc enters an object under when it has no value for an index: the byte 0xFF. */
const NO_VALUE = Buffer.from([0xff]);
const NUL = Buffer.from([0]);

/** What an object's members in an index end with: its order member in an ordered index (ADR 0017), else its name. */
const tailOf = (spec: IndexSpec, object: ApiObject): Buffer =>
  isOrdered(spec) ? orderMember(object.metadata.creationTimestamp, nameOf(object)) : Buffer.from(nameOf(object));

/** The index members of an object, `<value>\0<tail>`, or the no-value sentinel's. */
function entries(values: readonly string[] | undefined, tail: Buffer): Buffer[] {
  if (values === undefined || values.length === 0) return [Buffer.concat([NO_VALUE, NUL, tail])];
  return values.map((value) => Buffer.concat([Buffer.from(value), NUL, tail]));
}

/** ZADD's arguments: score 0 before every member. */
const scored = (members: readonly Buffer[]): (Buffer | number)[] => members.flatMap((member) => [0, member]);

const nameOf = (object: ApiObject): string => {
  const name = object.metadata.name;
  if (!name) throw new Error('a benchmark object needs metadata.name');
  return name;
};

/** Runs the pipeline; a command that failed fails the write (the baseline must really write). */
async function execOrThrow(pipeline: ChainableCommander): Promise<void> {
  for (const [error] of (await pipeline.exec()) ?? []) {
    if (error) throw error;
  }
}
