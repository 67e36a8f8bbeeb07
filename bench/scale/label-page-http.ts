import { join } from 'node:path';
import { freePort } from '../../pkg/util/free-port';
import { typeKeys } from '../../pkg/storage/redis';
import { personBody, PERSONS_PATH, PERSONS_TYPE } from '../apiserver/persons';
import { startApiserver, type ServerUnderTest } from '../apiserver/servers';
import { runLoad, type LoadResult } from '../support/http-load';
import { openBenchSession, withBenchSession, type BenchSession } from '../support/session';
import { renderTable } from '../support/report';

const CONCURRENCY = 32;
const WARMUP = 1_000;
const GOAL = 0.33;
/** The label page (first 20 gold persons), as a user sends it. */
const LABEL_PAGE = `${PERSONS_PATH}?page=1&size=20&labelSelector=tier%3Dgold`;

/** Person `i`'s body: 1% of them (i mod 100 = 42) labelled `tier=gold`, the others `tier=plain`. */
function scalePerson(i: number): string {
  const person = JSON.parse(personBody(`p-${i}`, i)) as { metadata: { labels: Record<string, string> } };
  person.metadata.labels.tier = i % 100 === 42 ? 'gold' : 'plain';
  return JSON.stringify(person);
}

/**
 * The HTTP part: `objects` Persons created through the apiserver (1% gold),
 * then `GET …/persons?page=1&size=20&labelSelector=tier%3Dgold` against the
 * apiserver and the same page from a bare server (./bare-label-server.ts)
 * reading a sorted set of the gold objects on the same Redis, in alternating
 * closed-loop runs.
 */
export async function runLabelPageHttp(
  settings: { objects: number; requests: number; runs: number },
  out: (line: string) => void,
): Promise<void> {
  await withBenchSession(await openBenchSession('scale-http'), async (session) => {
    const svc = await startApiserver(session);
    const load = await runLoad({
      url: svc.url,
      concurrency: CONCURRENCY,
      requests: settings.objects,
      requestAt: (i) => ({ method: 'POST', path: PERSONS_PATH, body: scalePerson(i) }),
      expectStatus: 201,
    });
    out(`loaded ${settings.objects} persons through the apiserver at ${Math.round(load.perSecond)} creates/s`);
    const bare = await startBare(session);
    out(await compare(svc.url, bare.url, settings));
  });
}

/** Copies the gold objects into the bare server's keys (a sorted set by creation time, a string per object). */
async function startBare(session: BenchSession): Promise<ServerUnderTest> {
  const { client, keyPrefix } = session;
  const keys = typeKeys(keyPrefix, PERSONS_TYPE);
  const set = `${keyPrefix}:bare:gold`;
  const objects = `${keyPrefix}:bare:object:`;
  // The labels index is ordered (ADR 0017): each member ends with 0xFF and the name.
  const members = await client.zrangebylexBuffer(keys.index('metadata.labels'), '[tier=gold\0', '(tier=gold\x01');
  for (const member of members) {
    const name = member.subarray(member.lastIndexOf(0xff) + 1).toString();
    const json = (await client.hget(keys.objects, name)) ?? '';
    const created = Date.parse(
      (JSON.parse(json) as { metadata: { creationTimestamp: string } }).metadata.creationTimestamp,
    );
    await client.set(`${objects}${name}`, json);
    await client.zadd(set, created, name);
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const process = await session.startProcess('bare', {
    script: join(__dirname, 'bare-label-server.js'),
    args: ['--listen', `127.0.0.1:${port}`, '--redis', session.redis.url, '--set', set, '--objects', objects],
    readyUrl: `${url}/healthz`,
  });
  return { url, process };
}

/** Warms both servers up, then runs them alternately and reports the median runs side by side. */
async function compare(svcUrl: string, bareUrl: string, settings: { requests: number; runs: number }): Promise<string> {
  const run = (url: string, path: string, requests: number) =>
    runLoad({ url, concurrency: CONCURRENCY, requests, requestAt: () => ({ method: 'GET', path }), expectStatus: 200 });
  await run(svcUrl, LABEL_PAGE, WARMUP);
  await run(bareUrl, '/page', WARMUP);
  const svc: LoadResult[] = [];
  const bare: LoadResult[] = [];
  for (let i = 0; i < settings.runs; i++) {
    svc.push(await run(svcUrl, LABEL_PAGE, settings.requests));
    bare.push(await run(bareUrl, '/page', settings.requests));
  }
  const [s, b] = [median(svc), median(bare)];
  const ratio = s.perSecond / b.perSecond;
  const row = (who: string, r: LoadResult, all: LoadResult[]) => [
    who,
    Math.round(r.perSecond).toLocaleString('en-US'),
    all.map((x) => Math.round(x.perSecond).toLocaleString('en-US')).join(' / '),
    `${r.latency.p50.toPrecision(3)} ms`,
    `${r.latency.p99.toPrecision(3)} ms`,
    String(r.errors),
  ];
  return [
    `GET ${LABEL_PAGE} (1% of the objects), ${CONCURRENCY} in flight, median of ${settings.runs} runs of ${settings.requests}:`,
    renderTable(
      ['server', 'req/s', 'each run', 'p50', 'p99', 'errors'],
      [row('svc', s, svc), row('bare limit (ZREVRANGE+MGET+ZCARD)', b, bare)],
    ),
    `svc / bare limit: ${ratio.toFixed(2)} (goal ≥ ${GOAL}): ${ratio >= GOAL ? 'PASS' : 'MISS'}`,
  ].join('\n');
}

const median = (runs: LoadResult[]): LoadResult =>
  [...runs].sort((a, b) => a.perSecond - b.perSecond)[runs.length >> 1];
