import type { ApiClient } from '../../pkg/client';
import type { ResourceRef } from '../../pkg/client/resource';
import { runConcurrently } from '../support/concurrency';
import { summarizeLatencies, type LatencySummary } from '../support/latency-stats';
import { withProgress } from '../support/progress';
import { RemovalLog } from './removal-log';

/** The Person resource the benchmark creates and deletes. */
export const PERSONS: ResourceRef = { group: 'example.com', version: 'v1alpha1', plural: 'persons', kind: 'Person' };

const person = (name: string, batch: string) => ({
  apiVersion: 'example.com/v1alpha1',
  kind: 'Person',
  metadata: { name, labels: { batch } },
  spec: { name: name.toUpperCase(), age: 30 },
});

/** Creates `count` Persons labelled `batch=<batch>`, 64 in flight, with a progress bar; returns their names. */
export async function createBatch(client: ApiClient, batch: string, count: number): Promise<string[]> {
  const names = Array.from({ length: count }, (_, i) => `${batch}-${i}`);
  await withProgress(`creating ${count} Persons (${batch})`, count, (counter) =>
    runConcurrently(names.length, 64, async (i) => {
      await client.create(PERSONS, person(names[i], batch));
      counter.done++;
    }),
  );
  return names;
}

/** A single deletion at a time on an idle system: DELETE (mark) → removed, `count` times. */
export async function singleDeletions(client: ApiClient, count: number): Promise<LatencySummary> {
  const names = await createBatch(client, 'single', count);
  const log = new RemovalLog();
  await log.start(client, PERSONS, (await client.list(PERSONS, { limit: 1 })).resourceVersion);
  const latencies: number[] = [];
  try {
    await withProgress('single deletions', count, async (counter) => {
      for (const name of names) {
        const start = performance.now();
        await client.delete(PERSONS, name);
        await log.untilRemoved([name], 10_000);
        latencies.push(log.removedAt.get(name)! - start);
        counter.done++;
      }
    });
  } finally {
    log.stop();
  }
  return summarizeLatencies(latencies);
}

/** What collecting a batch marked at once measured. */
export interface MassResult {
  count: number;
  /** From the collection DELETE's start until the last object was removed. */
  totalMs: number;
  /** Per object: from when its mark was seen to its removal. */
  markToRemoval: LatencySummary;
  /** Removals per second over `totalMs`. */
  perSecond: number;
}

/**
 * Creates `count` Persons, marks them all with one collection DELETE, and
 * waits until each is removed (by the gc controller, or by `remover` for the
 * baseline, which is called once the marking is done).
 */
export async function massDeletion(
  client: ApiClient,
  server: string,
  batch: string,
  count: number,
  remover?: (names: string[]) => Promise<void>,
): Promise<MassResult> {
  const names = await createBatch(client, batch, count);
  const log = new RemovalLog();
  await log.start(client, PERSONS, (await client.list(PERSONS, { limit: 1 })).resourceVersion);
  try {
    const start = performance.now();
    await withProgress(`removing ${count} marked Persons (${batch})`, count, async (counter) => {
      const progress = setInterval(() => {
        counter.done = log.removedAt.size;
      }, 200);
      try {
        await markAll(server, batch);
        if (remover) await remover(names);
        await log.untilRemoved(names, 300_000);
      } finally {
        clearInterval(progress);
      }
    });
    const end = Math.max(...names.map((n) => log.removedAt.get(n)!));
    const latencies = names.map((n) => log.removedAt.get(n)! - (log.markedAt.get(n) ?? start));
    const totalMs = end - start;
    return { count, totalMs, markToRemoval: summarizeLatencies(latencies), perSecond: (count * 1000) / totalMs };
  } finally {
    log.stop();
  }
}

/** DELETE on the collection with `labelSelector=batch=<batch>`: marks every object of the batch. */
async function markAll(server: string, batch: string): Promise<void> {
  const url = `${server}/apis/example.com/v1alpha1/persons?labelSelector=${encodeURIComponent(`batch=${batch}`)}`;
  const res = await fetch(url, { method: 'DELETE' });
  if (!res.ok) throw new Error(`marking batch ${batch} answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
}

/**
 * The baseline remover: what the gc controller's removals cost at the least,
 * a bare client removing the marked objects with conditional DELETEs, 8 in
 * flight (the gc controller's worker count), with no informer, queue or cache.
 */
export function bareRemover(client: ApiClient): (names: string[]) => Promise<void> {
  return async (names) => {
    await runConcurrently(names.length, 8, async (i) => {
      const current = await client.get(PERSONS, names[i]);
      await client.delete(PERSONS, names[i], { preconditions: { resourceVersion: current.metadata.resourceVersion } });
    });
  };
}
