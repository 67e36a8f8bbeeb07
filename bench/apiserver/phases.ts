import { runLoad } from '../support/http-load';
import { withPhaseProgress } from './phase-progress';
import { loadedName, personBody, PERSONS_PATH } from './persons';
import type { ApiBenchSession } from './session';
import { compareThroughput, type Comparison, type Side, type ThroughputSettings } from './throughput';

/** Requests in flight while loading the objects. */
const LOAD_CONCURRENCY = 32;
/** The page size of the list benchmark. */
export const PAGE_SIZE = 20;

/**
 * Creates `count` Persons (`p-0` …) through the apiserver, `LOAD_CONCURRENCY`
 * at a time; resolves with the creates per second.
 */
export async function loadPersons(session: ApiBenchSession, count: number): Promise<number> {
  const result = await withPhaseProgress(`loading ${count} persons`, count, (update) =>
    runLoad({
      url: session.apiserver.url,
      concurrency: LOAD_CONCURRENCY,
      requests: count,
      expectStatus: 201,
      requestAt: (i) => ({ method: 'POST', path: PERSONS_PATH, body: personBody(loadedName(i), i) }),
      onProgress: update,
    }),
  );
  if (result.errors > 0) throw new Error(`loading failed ${result.errors} times; first: ${result.firstError}`);
  return result.perSecond;
}

/**
 * GET one object, list a page of PAGE_SIZE, and create, each on the
 * apiserver and on the baseline server (see ./baseline-server.ts).
 * GETs cycle through the `objects` loaded Persons; creates make new ones.
 */
export async function compareOperations(
  session: ApiBenchSession,
  objects: number,
  settings: ThroughputSettings,
): Promise<Comparison[]> {
  const svc = (request: Side['request'], expectStatus = 200): Side => ({
    name: 'svc',
    url: session.apiserver.url,
    pid: session.apiserver.process.pid,
    request,
    expectStatus,
  });
  const baseline = (request: Side['request'], expectStatus = 200): Side => ({
    name: 'baseline',
    url: session.baseline.url,
    pid: session.baseline.process.pid,
    request,
    expectStatus,
  });
  const results: Comparison[] = [];
  results.push(
    await compareThroughput(
      'GET one object',
      svc((seq) => ({ method: 'GET', path: `${PERSONS_PATH}/${loadedName(seq % objects)}` })),
      baseline((seq) => ({ method: 'GET', path: `/objects/${loadedName(seq % objects)}` })),
      settings,
    ),
  );
  results.push(
    await compareThroughput(
      `list ${PAGE_SIZE} of ${objects}`,
      svc(() => ({ method: 'GET', path: `${PERSONS_PATH}?limit=${PAGE_SIZE}` })),
      baseline(() => ({ method: 'GET', path: `/list?limit=${PAGE_SIZE}` })),
      settings,
    ),
  );
  results.push(
    await compareThroughput(
      'create',
      svc((seq) => ({ method: 'POST', path: PERSONS_PATH, body: personBody(`c-svc-${seq}`, seq) }), 201),
      baseline((seq) => ({ method: 'POST', path: '/objects', body: personBody(`c-base-${seq}`, seq) }), 201),
      settings,
    ),
  );
  return results;
}
