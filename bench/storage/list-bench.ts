import type Redis from 'ioredis';
import type { LabelRequirement, Storage } from '../../pkg/storage';
import type { TypeKeys } from '../../pkg/storage/redis';
import { withRedisTime } from '../support/redis-command-time';
import { median } from '../support/stats';
import { timeCalls, warmUp } from '../support/timing';
import { ONE_PERCENT_FILTER } from './bench-model';
import { baselineFirstPage, type NamedPage } from './list-baseline';

/** The page size of every list measured. */
export const PAGE_SIZE = 20;

/** The two lists measured: the newest objects, and the newest of one label value (1% of the objects). */
export const LIST_VARIANTS = [
  { id: 'all', label: 'list page of 20, newest first', filter: undefined },
  { id: 'filtered', label: 'list page of 20, newest first, label = (1%)', filter: ONE_PERCENT_FILTER },
] as const satisfies readonly { id: string; label: string; filter: LabelRequirement | undefined }[];

/** Which list a figure is of. */
export type ListVariant = (typeof LIST_VARIANTS)[number]['id'];

/** One list's median times, svc and baseline, at one number of objects. */
export interface ListFigures {
  variant: ListVariant;
  objects: number;
  svcMs: number;
  /** Of svc's time, what Redis spent running the list script (mean over the same calls). */
  svcRedisMs: number;
  baselineMs: number;
}

/** svc's calls are cheap: it is timed this many times more often than the baseline, for a steadier median. */
export const SVC_CALLS_PER_RUN = 5;

/** Where the lists read: the storage under test, a plain client on the same Redis, the type and its keys. */
export interface ListTarget {
  storage: Storage;
  redis: Redis;
  type: string;
  keys: TypeKeys;
}

/**
 * Measures both list variants on the type as it is now (`objects` objects):
 * svc's `Storage.list` (median of `runs` × SVC_CALLS_PER_RUN calls, and the
 * mean time Redis spent in the list script over those calls), then the
 * baseline (median of `runs` calls); each after `warmups` untimed calls.
 * Every svc measurement comes before the baselines, whose garbage (in Node
 * and in Redis, which just sent 100k objects) would slow svc's calls. First
 * checks that both return the same page and total, so that both are measured
 * doing the same job.
 */
export async function benchLists(
  target: ListTarget,
  objects: number,
  warmups: number,
  runs: number,
): Promise<ListFigures[]> {
  for (const variant of LIST_VARIANTS) await checkSamePage(target, variant.filter);
  const svc: { ms: number; redisMs: number }[] = [];
  for (const variant of LIST_VARIANTS) {
    const list = () => svcFirstPage(target, variant.filter);
    await warmUp(list, warmups * SVC_CALLS_PER_RUN);
    const { result, msPerCall } = await withRedisTime(target.redis, 'evalsha', () =>
      timeCalls(list, runs * SVC_CALLS_PER_RUN),
    );
    svc.push({ ms: median(result), redisMs: msPerCall });
  }
  const baseline: number[] = [];
  for (const variant of LIST_VARIANTS) {
    const load = () => baselineFirstPage(target.redis, target.keys, variant.filter, PAGE_SIZE);
    await warmUp(load, warmups);
    baseline.push(median(await timeCalls(load, runs)));
  }
  return LIST_VARIANTS.map((variant, at) => ({
    variant: variant.id,
    objects,
    svcMs: svc[at].ms,
    svcRedisMs: svc[at].redisMs,
    baselineMs: baseline[at],
  }));
}

/** svc's first page: the default sort is `metadata.creationTimestamp` descending, then name. */
async function svcFirstPage(target: ListTarget, filter: LabelRequirement | undefined): Promise<NamedPage> {
  const result = await target.storage.list(target.type, {
    limit: PAGE_SIZE,
    labelSelector: filter === undefined ? undefined : [filter],
  });
  return { names: result.items.map((item) => item.metadata.name ?? ''), total: result.total };
}

/** Throws when svc and the baseline disagree on the page or the total. */
async function checkSamePage(target: ListTarget, filter: LabelRequirement | undefined): Promise<void> {
  const svc = await svcFirstPage(target, filter);
  const baseline = await baselineFirstPage(target.redis, target.keys, filter, PAGE_SIZE);
  if (svc.total !== baseline.total || svc.names.join() !== baseline.names.join()) {
    throw new Error(
      `svc and the baseline disagree on the page (filter ${JSON.stringify(filter)}): ` +
        `svc ${svc.total} [${svc.names.join(', ')}], baseline ${baseline.total} [${baseline.names.join(', ')}]`,
    );
  }
}
