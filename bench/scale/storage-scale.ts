import { performance } from 'node:perf_hooks';
import Redis from 'ioredis';
import { openStorage, type Storage } from '../../pkg/storage';
import { typeKeys, type TypeKeys } from '../../pkg/storage/redis';
import type { IndexLayout } from '../../pkg/storage/redis/keys';
import type { ObjectCompression } from '../../pkg/storage/redis/stored-objects';
import { bucketedSetMemory } from '../../pkg/storage/redis/bucketed-set-members';
import { benchRedis } from '../support/session';
import { withRedisTime } from '../support/redis-command-time';
import { withProgress } from '../support/progress';
import { renderTable } from '../support/report';
import { BENCH_INDEXES, benchName, ONE_PERCENT_FILTER, specOf } from '../storage/bench-model';
import { LABELS_INDEX, type IndexSpec } from '../../pkg/storage/indexes';
import { pairIndexName } from '../../pkg/storage/pair-indexes';
import { loadObjects } from '../storage/load';
import { measureSlowShapes, slowShapesTable } from './slow-shapes';

const TYPE = 'scalepersons.bench.svc.run';
const WARMUP = 10;
const CALLS = 35;
const PAIRED_SORT = 'spec.name';
/** Sorted by it, the 1% page is one equality sorted by an index without a pair: O(matches). */
const UNPAIRED_SORT = 'spec.age';
/** The benchmark's indexes, `spec.name` paired with the labels (ADR 0023): the 1% page sorted by it is a range. */
const SCALE_INDEXES: IndexSpec[] = BENCH_INDEXES.map((spec) =>
  spec.name === PAIRED_SORT ? { ...spec, filteredBy: [LABELS_INDEX] } : spec,
);
const onePercentBy = (index: string) => ({
  labelSelector: [ONE_PERCENT_FILTER],
  sort: [{ index, direction: 'asc' as const }],
  limit: 20,
});

/** One size's figures. */
interface SizeFigures {
  objects: number;
  loadPerSecond: number;
  /** Median ms end to end and in Redis, for the 1% label page and the unfiltered page. */
  filtered: { ms: number; redisMs: number };
  plain: { ms: number; redisMs: number };
  /** The 1% label page sorted by `spec.name` (paired with the labels) and by `spec.age` (not paired). */
  paired: { ms: number; redisMs: number };
  unpaired: { ms: number; redisMs: number };
  bytesPerObject: number;
  jsonBytes: number;
}

/**
 * The storage part: fills one type of the storage benchmark's Person through
 * `Storage.create` to each size, and at each measures the 1% label page
 * (newest first) beside the unfiltered page, Redis memory per object beside
 * the objects' JSON size; at the last size, a full index build for every
 * object (a new index), with progress.
 */
export async function runStorageScale(
  sizes: readonly number[],
  storeOptions: { indexLayout: IndexLayout; compression: ObjectCompression; pair: boolean },
  out: (line: string) => void,
): Promise<void> {
  const { indexLayout, compression, pair } = storeOptions;
  // Without the pair, the model's own seven indexes only: the 1% page by spec.name is then O(matches) too.
  const indexes = pair ? SCALE_INDEXES : BENCH_INDEXES;
  const redis = await benchRedis();
  const keyPrefix = `bench-scale-${process.pid}`;
  const client = new Redis(redis.url);
  const url = new URL(redis.url);
  url.searchParams.set('keyPrefix', keyPrefix);
  url.searchParams.set('indexLayout', indexLayout);
  url.searchParams.set('compression', compression);
  const storage = await openStorage(url.href);
  try {
    out(`Redis: ${redis.origin}; ${indexLayout} index sets, compression ${compression}, pair index ${pair}`);
    await storage.defineType(TYPE, indexes);
    const baseMemory = await usedMemory(client);
    const figures: SizeFigures[] = [];
    const slow: string[] = [];
    let loaded = 0;
    for (const size of sizes) {
      const load = await loadObjects(storage, TYPE, loaded, size);
      loaded = size;
      figures.push(await measureSize(storage, client, keyPrefix, size, load, baseMemory));
      slow.push(slowShapesTable(size, await measureSlowShapes(storage, client, TYPE)));
    }
    for (const table of slow) out(table);
    out(sizeTable(figures));
    out(growthLine(figures));
    out(await memoryBreakdown(client, typeKeys(keyPrefix, TYPE, indexLayout), loaded));
    out(await rebuild(storage, indexes, loaded));
  } finally {
    await storage.close();
    await removeKeys(client, `${keyPrefix}:*`);
    client.disconnect();
    await redis.stop();
  }
}

async function measureSize(
  storage: Storage,
  client: Redis,
  keyPrefix: string,
  size: number,
  load: { from: number; to: number; ms: number },
  baseMemory: number,
): Promise<SizeFigures> {
  const filtered = await timeList(client, () => storage.list(TYPE, { labelSelector: [ONE_PERCENT_FILTER], limit: 20 }));
  const plain = await timeList(client, () => storage.list(TYPE, { limit: 20 }));
  const paired = await timeList(client, () => storage.list(TYPE, onePercentBy(PAIRED_SORT)));
  const unpaired = await timeList(client, () => storage.list(TYPE, onePercentBy(UNPAIRED_SORT)));
  const memory = (await usedMemory(client)) - baseMemory;
  return {
    objects: size,
    loadPerSecond: ((load.to - load.from) / load.ms) * 1000,
    filtered,
    plain,
    paired,
    unpaired,
    bytesPerObject: memory / size,
    jsonBytes: await meanJsonBytes(storage, size),
  };
}

/** Median time of a list call end to end, and the mean time of its script in Redis. */
async function timeList(client: Redis, call: () => Promise<unknown>): Promise<{ ms: number; redisMs: number }> {
  for (let i = 0; i < WARMUP; i++) await call();
  const { result, msPerCall } = await withRedisTime(client, 'evalsha', async () => {
    const times: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const start = performance.now();
      await call();
      times.push(performance.now() - start);
    }
    return times.sort((a, b) => a - b)[times.length >> 1];
  });
  return { ms: result, redisMs: msPerCall };
}

/** The mean size of the JSON of up to 1,000 objects spread over the type, as a get answers it (stored compressed or not). */
async function meanJsonBytes(storage: Storage, size: number): Promise<number> {
  const step = Math.max(1, Math.floor(size / 1000));
  let total = 0;
  let count = 0;
  for (let i = 0; i < size; i += step) {
    total += Buffer.byteLength(JSON.stringify(await storage.get(TYPE, benchName(i))));
    count++;
  }
  return total / count;
}

/**
 * Where Redis' memory goes, per object: `MEMORY USAGE` of each of the type's keys (sampled for big ones); an
 * index is its directory and every bucket (ADR 0025).
 */
async function memoryBreakdown(client: Redis, keys: TypeKeys, objects: number): Promise<string> {
  const plain = keys.index('x').startsWith(keys.indexPrefixes.plain);
  const usage = async (key: string): Promise<number> =>
    Number((await client.call('MEMORY', 'USAGE', key, 'SAMPLES', '1000')) ?? 0);
  const parts: [string, () => Promise<number>][] = [
    ['objects hash', () => usage(keys.objects)],
    ['stored index values (ixv)', () => usage(keys.indexValues)],
    ['change stream', () => usage(keys.stream)],
    ...['metadata.name', 'metadata.labels', 'metadata.creationTimestamp', 'metadata.deletionTimestamp']
      .concat(BENCH_INDEXES.map((s) => s.name))
      .concat([pairIndexName(LABELS_INDEX, PAIRED_SORT)])
      .map((name): [string, () => Promise<number>] => [
        `index ${name}`,
        () => (plain ? usage(keys.index(name)) : bucketedSetMemory(client, keys.index(name))),
      ]),
  ];
  const rows: string[][] = [];
  for (const [what, measure] of parts) {
    rows.push([what, Math.round((await measure()) / objects).toLocaleString('en-US')]);
  }
  return `Redis memory per object by key, ${objects.toLocaleString('en-US')} objects (MEMORY USAGE, sampled):\n${renderTable(['key', 'bytes/object'], rows)}`;
}

async function usedMemory(client: Redis): Promise<number> {
  const info = await client.info('memory');
  return Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? 0);
}

/** Adds an index (`spec.email`) to the full type and times its build until lists may use it. */
async function rebuild(storage: Storage, indexes: IndexSpec[], objects: number): Promise<string> {
  const email = { name: 'spec.email', indexFunc: (o: Parameters<typeof specOf>[0]) => specOf(o).email };
  const start = performance.now();
  await withProgress(`building index spec.email`, objects, async (counter) => {
    await storage.defineType(TYPE, [...indexes, email], ({ done }) => {
      counter.done = done;
    });
    await storage.whenIndexesReady(TYPE);
  });
  const seconds = (performance.now() - start) / 1000;
  return `full index build (spec.email, ${objects.toLocaleString('en-US')} objects): ${seconds.toFixed(1)} s (${Math.round(objects / seconds).toLocaleString('en-US')} objects/s)`;
}

function sizeTable(figures: readonly SizeFigures[]): string {
  const ms = (n: number) => `${n.toPrecision(3)} ms`;
  return renderTable(
    [
      'objects',
      'load (creates/s)',
      '1% label page',
      'of it in Redis',
      'unfiltered page (baseline)',
      'of it in Redis',
      `1% by ${PAIRED_SORT} (paired)`,
      'of it in Redis',
      `1% by ${UNPAIRED_SORT} (not paired)`,
      'of it in Redis',
      'Redis bytes/object',
      'JSON bytes',
      'ratio (goal ≤ 2×)',
    ],
    figures.map((f) => [
      f.objects.toLocaleString('en-US'),
      Math.round(f.loadPerSecond).toLocaleString('en-US'),
      ms(f.filtered.ms),
      ms(f.filtered.redisMs),
      ms(f.plain.ms),
      ms(f.plain.redisMs),
      ms(f.paired.ms),
      ms(f.paired.redisMs),
      ms(f.unpaired.ms),
      ms(f.unpaired.redisMs),
      Math.round(f.bytesPerObject).toLocaleString('en-US'),
      Math.round(f.jsonBytes).toLocaleString('en-US'),
      `${(f.bytesPerObject / f.jsonBytes).toFixed(2)}×`,
    ]),
  );
}

function growthLine(figures: readonly SizeFigures[]): string {
  const [first, last] = [figures[0], figures[figures.length - 1]];
  const growth = (a: number, b: number) => `${(b / a).toFixed(2)}×`;
  const span = `from ${first.objects.toLocaleString('en-US')} to ${last.objects.toLocaleString('en-US')} objects`;
  const paired =
    `1% label page sorted by ${PAIRED_SORT} (paired) ${span}: ` +
    `${growth(first.paired.ms, last.paired.ms)} end to end, ${growth(first.paired.redisMs, last.paired.redisMs)} in Redis ` +
    `(goal ≤ 1.25×; sorted by ${UNPAIRED_SORT}, not paired, same run: ${growth(first.unpaired.ms, last.unpaired.ms)}, ` +
    `${growth(first.unpaired.redisMs, last.unpaired.redisMs)})`;
  return (
    paired +
    '\n' +
    (`1% label page from ${first.objects.toLocaleString('en-US')} to ${last.objects.toLocaleString('en-US')} objects: ` +
      `${growth(first.filtered.ms, last.filtered.ms)} end to end, ${growth(first.filtered.redisMs, last.filtered.redisMs)} in Redis ` +
      `(goal ≤ 1.25×; unfiltered page, same run: ${growth(first.plain.ms, last.plain.ms)}, ${growth(first.plain.redisMs, last.plain.redisMs)})`)
  );
}

async function removeKeys(client: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    if (keys.length > 0) await client.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
