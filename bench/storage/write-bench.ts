import type Redis from 'ioredis';
import { withDefaultIndexes, type Storage } from '../../pkg/storage';
import { typeKeys, type TypeKeys } from '../../pkg/storage/redis';
import type { IndexLayout } from '../../pkg/storage/redis/keys';
import { bucketedSetMembers } from '../../pkg/storage/redis/bucketed-set-members';
import { runConcurrently } from '../support/concurrency';
import { collectGarbage } from '../support/garbage';
import { withProgress } from '../support/progress';
import { redisCpuMicros } from '../support/redis-cpu';
import { median } from '../support/stats';
import { BENCH_INDEXES, benchName, benchObject, updatedObject } from './bench-model';
import { PipelinedWriter } from './pipelined-writer';

/** Writes in flight during a write benchmark. */
export const WRITE_CONCURRENCY = 32;
/** The stream retention both svc and the baseline trim to (the storage's default). */
const STREAM_RETENTION = 100_000;

/** One write operation's medians, svc and baseline: throughput, and the CPU time Redis spent per write. */
export interface WriteFigures {
  operation: 'create' | 'update';
  ops: number;
  svcOpsPerSecond: number;
  baselineOpsPerSecond: number;
  svcRedisMicrosPerOp: number;
  baselineRedisMicrosPerOp: number;
}

/** Where the writes go: the storage under test, a plain client on the same Redis, and svc's key prefix. */
export interface WriteTarget {
  storage: Storage;
  redis: Redis;
  keyPrefix: string;
  /** How the storage keeps its index sets (the baseline's are plain sorted sets either way). */
  indexLayout: IndexLayout;
}

/** What one phase of a round took: wall time and Redis CPU time. */
interface PhaseCost {
  ms: number;
  redisMicros: number;
}

/** The phases of one round. */
interface RoundTimes {
  svcCreate: PhaseCost;
  baselineCreate: PhaseCost;
  svcUpdate: PhaseCost;
  baselineUpdate: PhaseCost;
}

/**
 * Measures create and update throughput at WRITE_CONCURRENCY: svc's
 * `Storage.create`/`update` against the pipelined baseline. Each round
 * creates `ops` objects into a fresh type with each writer, then updates each
 * of them once; svc and the baseline take turns going first. One untimed
 * warm-up round of `warmupOps` comes first; after the first timed round the
 * baseline's keys are checked to hold as much as svc's. Every round's keys
 * are removed after it.
 */
export async function benchWrites(
  target: WriteTarget,
  ops: number,
  warmupOps: number,
  rounds: number,
): Promise<WriteFigures[]> {
  await writeRound(target, 0, warmupOps, 'warm-up');
  const times: RoundTimes[] = [];
  for (let round = 1; round <= rounds; round++) {
    times.push(await writeRound(target, round, ops, `round ${round}/${rounds}`, round === 1));
  }
  const rate = (pick: (t: RoundTimes) => PhaseCost) => median(times.map((t) => ops / (pick(t).ms / 1000)));
  const redisPerOp = (pick: (t: RoundTimes) => PhaseCost) => median(times.map((t) => pick(t).redisMicros / ops));
  return [
    {
      operation: 'create',
      ops,
      svcOpsPerSecond: rate((t) => t.svcCreate),
      baselineOpsPerSecond: rate((t) => t.baselineCreate),
      svcRedisMicrosPerOp: redisPerOp((t) => t.svcCreate),
      baselineRedisMicrosPerOp: redisPerOp((t) => t.baselineCreate),
    },
    {
      operation: 'update',
      ops,
      svcOpsPerSecond: rate((t) => t.svcUpdate),
      baselineOpsPerSecond: rate((t) => t.baselineUpdate),
      svcRedisMicrosPerOp: redisPerOp((t) => t.svcUpdate),
      baselineRedisMicrosPerOp: redisPerOp((t) => t.baselineUpdate),
    },
  ];
}

/** One round: both writers create `ops` objects in fresh types, then update each once. Returns each phase's cost. */
async function writeRound(
  target: WriteTarget,
  round: number,
  ops: number,
  label: string,
  checkLayout = false,
): Promise<RoundTimes> {
  const { storage, redis, keyPrefix, indexLayout } = target;
  const svcType = `svcwrites${round}.bench.svc.run`;
  const baselineType = `pipelinedwrites${round}.bench.svc.run`;
  const svcKeys = typeKeys(keyPrefix, svcType, indexLayout);
  const baselineKeys = typeKeys(keyPrefix, baselineType);
  await storage.defineType(svcType, BENCH_INDEXES);
  const specs = withDefaultIndexes(BENCH_INDEXES);
  const indexNames = specs.map((s) => s.name);
  const writer = new PipelinedWriter(redis, baselineKeys, specs, STREAM_RETENTION);

  const phase = (name: string, operation: (i: number) => Promise<unknown>) =>
    withProgress(`${label}: ${name}`, ops, async (progress): Promise<PhaseCost> => {
      collectGarbage();
      const redisBefore = await redisCpuMicros(redis);
      const ms = await runConcurrently(ops, WRITE_CONCURRENCY, operation, progress);
      return { ms, redisMicros: (await redisCpuMicros(redis)) - redisBefore };
    });
  const phases: Record<keyof RoundTimes, () => Promise<PhaseCost>> = {
    svcCreate: () => phase('svc create', (i) => storage.create(svcType, benchObject(i))),
    baselineCreate: () => phase('baseline create', (i) => writer.create(benchObject(i))),
    svcUpdate: () =>
      phase('svc update', (i) => storage.update(svcType, benchName(i), (current) => updatedObject(current, i))),
    baselineUpdate: () =>
      phase('baseline update', (i) => writer.update(benchName(i), (current) => updatedObject(current, i))),
  };
  // Creates before updates (the updates change the created objects); who goes first alternates by round.
  const order: (keyof RoundTimes)[] =
    round % 2 === 1
      ? ['svcCreate', 'baselineCreate', 'svcUpdate', 'baselineUpdate']
      : ['baselineCreate', 'svcCreate', 'baselineUpdate', 'svcUpdate'];
  const times = {} as RoundTimes;
  for (const key of order) times[key] = await phases[key]();
  if (checkLayout) await checkSameLayout(redis, { svc: svcKeys, baseline: baselineKeys, indexLayout }, indexNames);
  await redis.unlink(...allKeys(svcKeys, indexNames), ...allKeys(baselineKeys, indexNames));
  return times;
}

/** Every key of a type. */
const allKeys = (keys: TypeKeys, indexes: readonly string[]): string[] => [
  keys.objects,
  keys.indexValues,
  keys.revision,
  keys.stream,
  keys.indexStates,
  ...indexes.map(keys.index),
];

/**
 * What a type's keys hold, counted: objects, stored index values, revision, stream entries, members per index
 * (svc's indexes are bucketed sets, ADR 0025; the baseline's plain sorted sets).
 */
async function layoutOf(
  redis: Redis,
  keys: TypeKeys,
  indexes: readonly string[],
  layout: IndexLayout,
): Promise<Record<string, string>> {
  const counts: Record<string, string> = {
    objects: String(await redis.hlen(keys.objects)),
    'index values': String(await redis.hlen(keys.indexValues)),
    revision: (await redis.get(keys.revision)) ?? '0',
    'stream entries': String(await redis.xlen(keys.stream)),
  };
  for (const index of indexes) {
    const key = keys.index(index);
    const members = layout === 'bucketed' ? (await bucketedSetMembers(redis, key)).length : await redis.zcard(key);
    counts[`members of ${index}`] = String(members);
  }
  return counts;
}

/** Throws when the baseline's keys do not hold as much as svc's: then it would not be doing the same work. */
async function checkSameLayout(
  redis: Redis,
  keys: { svc: TypeKeys; baseline: TypeKeys; indexLayout: IndexLayout },
  indexes: readonly string[],
): Promise<void> {
  const svc = await layoutOf(redis, keys.svc, indexes, keys.indexLayout);
  const baseline = await layoutOf(redis, keys.baseline, indexes, 'plain');
  const differences = Object.keys(svc).filter((what) => svc[what] !== baseline[what]);
  if (differences.length > 0) {
    throw new Error(
      "the write baseline does not mirror svc's writes: " +
        differences.map((what) => `${what}: svc ${svc[what]}, baseline ${baseline[what]}`).join('; '),
    );
  }
}
