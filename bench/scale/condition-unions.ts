import { performance } from 'node:perf_hooks';
import Redis from 'ioredis';
import type { ApiObject } from '../../pkg/api/object';
import { openStorage, type IndexSpec, type ListOptions, type Storage } from '../../pkg/storage';
import { benchRedis } from '../support/session';
import { withRedisTime } from '../support/redis-command-time';
import { runConcurrently } from '../support/concurrency';
import { withProgress } from '../support/progress';
import { renderTable } from '../support/report';
import { BENCH_INDEXES, benchObject, GROUP_LABEL } from '../storage/bench-model';
import { LOAD_CONCURRENCY } from '../storage/load';

const TYPE = 'unionpersons.bench.svc.run';
const WARMUP = 10;
const CALLS = 35;
const PAGE = 50;
const OWNER_LABEL = 'bench.svc.run/owner';
const TEAM_LABEL = 'bench.svc.run/team';
/** The author owns objects 0…149 and team a holds 100…249, whatever the size: 250 in the union, 50 in both. */
const OWNED = 150;
const TEAM_FROM = 100;
const TEAM_TO = 250;

/** The benchmark's Person with an owner (`spec.owner`, an index) and the two fixed-size labels. */
function unionObject(index: number): ApiObject {
  const object = benchObject(index);
  const labels = { ...object.metadata.labels };
  if (index < OWNED) labels[OWNER_LABEL] = 'author';
  if (index >= TEAM_FROM && index < TEAM_TO) labels[TEAM_LABEL] = 'a';
  return {
    ...object,
    metadata: { ...object.metadata, labels },
    spec: { ...(object.spec as object), owner: index < OWNED ? 'author' : `user-${index % 997}` },
  };
}

const INDEXES: IndexSpec[] = [
  ...BENCH_INDEXES,
  { name: 'spec.owner', indexFunc: (o) => (o.spec as { owner?: string }).owner },
];

const label = (key: string, value: string) => ({ labelSelector: [{ key, op: 'in' as const, values: [value] }] });
const field = (name: string, value: string) => ({
  fieldSelector: [{ field: name, op: 'in' as const, values: [value] }],
});

/** A union and the lists asking for its alternatives one at a time (what a caller did before unions were planned). */
interface Shape {
  name: string;
  union: ListOptions;
  apart: ListOptions[];
}

const shape = (name: string, ...alternatives: ListOptions[]): Shape => ({
  name,
  union: { anyOf: alternatives, limit: PAGE },
  apart: alternatives.map((alt) => ({ ...alt, limit: PAGE })),
});

/**
 * The shapes measured: "own objects (a field) or a team's (a label)", 250 objects at every size, planned by
 * collecting each alternative's matches; the same union on two labels (ordered indexes), planned as a merge of
 * ranges; and two 1% label groups (grows with the size), merged.
 */
const SHAPES: Shape[] = [
  shape('owner field or team label (250 matches)', field('spec.owner', 'author'), label(TEAM_LABEL, 'a')),
  shape('owner label or team label (250, merged)', label(OWNER_LABEL, 'author'), label(TEAM_LABEL, 'a')),
  shape('two 1% label groups (2%, merged)', label(GROUP_LABEL, 'g42'), label(GROUP_LABEL, 'g43')),
];

interface Timing {
  ms: number;
  redisMs: number;
}

interface SizeRow {
  objects: number;
  union: Timing[];
  apart: Timing[];
  totals: number[];
}

/**
 * The conditional-list part of the scale benchmark (`--only unions`): a list with alternatives, as a conditional
 * list across differently shaped conditions becomes, at each size on Redis, against the same alternatives asked as
 * separate lists (one equality each, O(log n + page)). Objects go in through `Storage.create`.
 */
export async function runConditionUnions(sizes: readonly number[], out: (line: string) => void): Promise<void> {
  const redis = await benchRedis();
  const keyPrefix = `bench-unions-${process.pid}`;
  const client = new Redis(redis.url);
  const url = new URL(redis.url);
  url.searchParams.set('keyPrefix', keyPrefix);
  const storage = await openStorage(url.href);
  try {
    out(
      `Lists with alternatives (conditional unions): Redis ${redis.origin}, page of ${PAGE}, median of ${CALLS} calls`,
    );
    await storage.defineType(TYPE, INDEXES);
    const rows: SizeRow[] = [];
    let loaded = 0;
    for (const size of sizes) {
      const count = size - loaded;
      const from = loaded;
      await withProgress(`loading objects ${from}…${size} (Storage.create)`, count, (progress) =>
        runConcurrently(count, LOAD_CONCURRENCY, (i) => storage.create(TYPE, unionObject(from + i)), progress),
      );
      loaded = size;
      rows.push(await measure(storage, client, size));
    }
    out(resultTable(rows));
    for (const line of growthLines(rows)) out(line);
  } finally {
    await storage.close();
    await removeKeys(client, `${keyPrefix}:*`);
    client.disconnect();
    await redis.stop();
  }
}

async function measure(storage: Storage, client: Redis, objects: number): Promise<SizeRow> {
  const row: SizeRow = { objects, union: [], apart: [], totals: [] };
  for (const s of SHAPES) {
    row.totals.push((await storage.list(TYPE, s.union)).total);
    row.union.push(await timeList(client, () => storage.list(TYPE, s.union)));
    const parts = [];
    for (const alone of s.apart) parts.push(await timeList(client, () => storage.list(TYPE, alone)));
    row.apart.push({ ms: sum(parts.map((p) => p.ms)), redisMs: sum(parts.map((p) => p.redisMs)) });
  }
  return row;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Median time of a list call end to end, and the mean time of its script in Redis. */
async function timeList(client: Redis, call: () => Promise<unknown>): Promise<Timing> {
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

function resultTable(rows: readonly SizeRow[]): string {
  const ms = (n: number) => `${n.toPrecision(3)} ms`;
  return renderTable(
    ['objects', 'shape', 'total', 'union page', 'in Redis', 'alternatives apart (sum)', 'in Redis', 'union / apart'],
    rows.flatMap((row) =>
      SHAPES.map((s, k) => [
        row.objects.toLocaleString('en-US'),
        s.name,
        row.totals[k].toLocaleString('en-US'),
        ms(row.union[k].ms),
        ms(row.union[k].redisMs),
        ms(row.apart[k].ms),
        ms(row.apart[k].redisMs),
        `${(row.union[k].ms / row.apart[k].ms).toFixed(2)}×`,
      ]),
    ),
  );
}

function growthLines(rows: readonly SizeRow[]): string[] {
  const [first, last] = [rows[0], rows[rows.length - 1]];
  if (first === last) return [];
  const growth = (a: number, b: number) => `${(b / a).toFixed(2)}×`;
  return SHAPES.map(
    (s, k) =>
      `${s.name} from ${first.objects.toLocaleString('en-US')} to ${last.objects.toLocaleString('en-US')} objects: ` +
      `union ${growth(first.union[k].ms, last.union[k].ms)} end to end, ` +
      `${growth(first.union[k].redisMs, last.union[k].redisMs)} in Redis (goal ≤ 1.25×); ` +
      `alternatives apart ${growth(first.apart[k].ms, last.apart[k].ms)}`,
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
