import Redis from 'ioredis';
import type { ApiObject } from '../../pkg/api/object';
import { openStorage, withDefaultIndexes, type Storage } from '../../pkg/storage';
import { typeKeys, type TypeKeys } from '../../pkg/storage/redis';
import { bucketedSetMembers } from '../../pkg/storage/redis/bucketed-set-members';
import { sharedRedisUrl, uniqueKeyPrefix } from '../../test/support/redis';
import { BENCH_INDEXES, benchName, benchObject, updatedObject } from './bench-model';
import { PipelinedWriter } from './pipelined-writer';

const SPECS = withDefaultIndexes(BENCH_INDEXES);

const TIMESTAMP = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** A timestamp with its bytes complemented, in an ordered index's members (ADR 0017). */
const ORDER = /\\u0000[\u0080-\u00fe]+\u00ff/g;

/** A value with every timestamp and uid replaced: they differ between any two writes of an object. */
const normalised = <T>(value: T): T =>
  JSON.parse(
    JSON.stringify(value).replace(TIMESTAMP, '<time>').replace(UUID, '<uid>').replace(ORDER, '\\u0000<time>\u00ff'),
  ) as T;

/**
 * Everything a type's keys hold, parsed, with index members as latin1 (so
 * that the no-value sentinel, the byte 0xFF, shows as itself). svc's indexes
 * are bucketed sets (ADR 0025), the baseline's plain sorted sets.
 */
async function contents(redis: Redis, keys: TypeKeys, layout: 'bucketed' | 'plain') {
  const objects = await redis.hgetall(keys.objects);
  const indexes: Record<string, string[]> = {};
  for (const spec of SPECS) {
    const key = keys.index(spec.name);
    const members = layout === 'bucketed' ? await bucketedSetMembers(redis, key) : await redis.zrangeBuffer(key, 0, -1);
    indexes[spec.name] = members.map((m) => m.toString('latin1'));
  }
  const stream = (await redis.xrange(keys.stream, '-', '+')).map(([id, fields]) => {
    const entry: Record<string, unknown> = { id };
    for (let at = 0; at < fields.length; at += 2) {
      const [name, value] = [fields[at], fields[at + 1]];
      // t: the event type; o: the object; p: the index values before an update.
      entry[name] = name === 't' ? value : JSON.parse(value);
    }
    return entry;
  });
  return {
    objects: Object.fromEntries(Object.entries(objects).map(([name, json]) => [name, JSON.parse(json) as ApiObject])),
    indexValues: await redis.hgetall(keys.indexValues),
    revision: await redis.get(keys.revision),
    indexes,
    stream,
  };
}

describe('the pipelined write baseline', () => {
  const prefix = uniqueKeyPrefix('bench');
  let storage: Storage;
  let redis: Redis;

  beforeAll(async () => {
    const url = new URL(sharedRedisUrl());
    url.searchParams.set('keyPrefix', prefix);
    storage = await openStorage(url.href);
    redis = new Redis(sharedRedisUrl());
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.unlink(...keys);
    redis.disconnect();
    await storage.close();
  });

  it("leaves exactly what svc's creates and updates leave: objects, index entries, revisions, stream", async () => {
    const svcType = 'svc.bench.svc.run';
    const baselineType = 'baseline.bench.svc.run';
    await storage.defineType(svcType, BENCH_INDEXES);
    const writer = new PipelinedWriter(redis, typeKeys(prefix, baselineType), SPECS, 1000);
    for (let i = 0; i < 3; i++) {
      await storage.create(svcType, benchObject(i));
      await writer.create(benchObject(i));
    }
    for (let i = 0; i < 3; i++) {
      await storage.update(svcType, benchName(i), (current) => updatedObject(current, i));
      await writer.update(benchName(i), (current) => updatedObject(current, i));
    }

    const svc = await contents(redis, typeKeys(prefix, svcType), 'plain');
    const baseline = await contents(redis, typeKeys(prefix, baselineType), 'plain');
    expect(svc.revision).toBe('6');
    expect(Object.keys(svc.objects)).toHaveLength(3);
    // Updated objects: the spec moved on, so generation and version are 2.
    expect(svc.objects[benchName(1)].metadata).toMatchObject({ generation: 2, version: 2, resourceVersion: '5' });
    expect(svc.indexes['metadata.deletionTimestamp']).toEqual([0, 1, 2].map((i) => `\xff\0${benchName(i)}`));
    expect(normalised(baseline)).toEqual(normalised(svc));
  });

  it('refuses to update an object it did not create', async () => {
    const writer = new PipelinedWriter(redis, typeKeys(prefix, 'empty.bench.svc.run'), SPECS, 1000);
    await expect(writer.update('nobody', (current) => current)).rejects.toThrow('never created "nobody"');
  });
});
