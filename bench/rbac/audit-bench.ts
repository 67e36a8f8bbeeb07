import { withPhaseProgress } from '../apiserver/phase-progress';
import { loadedName, personBody, PERSONS_PATH } from '../apiserver/persons';
import { compareThroughput, type Side } from '../apiserver/throughput';
import { runLoad } from '../support/http-load';
import { percent, rate, renderTable, verdict } from '../support/report';
import { servePersons, type ClusterServer, type RbacCluster } from './cluster';
import { createToken, type GetBenchSettings } from './get-bench';

/** Creates at `--audit-level Writes` keep this share of `None`'s throughput; GETs at `All` this share. */
const CREATE_GOAL = 0.9;
const GET_GOAL = 0.85;

/**
 * The audit part, end to end: three RBAC apiservers on the same Redis, at `--audit-level None`, `Writes` and
 * `All`, the admin's bearer token on every request. Creates at `Writes` against `None`, GETs at `All` against
 * `None`, each the median of the runs, with the records written in the background as they would be.
 */
export async function runAuditBench(cluster: RbacCluster, settings: GetBenchSettings): Promise<boolean> {
  const none = await cluster.startApiserver('audit-none', 'RBAC', ['--audit-level', 'None']);
  const writes = await cluster.startApiserver('audit-writes', 'RBAC', ['--audit-level', 'Writes']);
  const all = await cluster.startApiserver('audit-all', 'RBAC', ['--audit-level', 'All']);
  await servePersons(cluster, [none, writes, all]);
  const bearer = { Authorization: `Bearer ${await createToken(none, cluster.adminBasic)}` };
  const loaded = await withPhaseProgress(`loading ${settings.objects} persons`, settings.objects, (update) =>
    runLoad({
      url: none.url,
      concurrency: 32,
      requests: settings.objects,
      expectStatus: 201,
      requestAt: (i) => ({ method: 'POST', path: PERSONS_PATH, body: personBody(loadedName(i), i), headers: bearer }),
      onProgress: update,
    }),
  );
  if (loaded.errors > 0) throw new Error(`loading persons failed ${loaded.errors} times; first: ${loaded.firstError}`);
  const create = (server: ClusterServer, name: string): Side => ({
    name,
    url: server.url,
    pid: server.pid,
    expectStatus: 201,
    request: (seq) => ({
      method: 'POST',
      path: PERSONS_PATH,
      body: personBody(`${server.name}-${seq}`, seq),
      headers: bearer,
    }),
  });
  const get = (server: ClusterServer, name: string): Side => ({
    name,
    url: server.url,
    pid: server.pid,
    expectStatus: 200,
    request: (seq) => ({
      method: 'GET',
      path: `${PERSONS_PATH}/${loadedName(seq % settings.objects)}`,
      headers: bearer,
    }),
  });
  const measured = { ...settings, redisPid: cluster.redisPid };
  const creates = await compareThroughput(
    'create',
    create(writes, 'audit Writes'),
    create(none, 'audit None'),
    measured,
  );
  const gets = await compareThroughput('GET one object', get(all, 'audit All'), get(none, 'audit None'), measured);
  const rows = [
    [
      creates.label,
      'Writes',
      rate(creates.svc.median.perSecond),
      rate(creates.baseline.median.perSecond),
      percent(creates.ratio),
      `≥ ${percent(CREATE_GOAL)}`,
      verdict(creates.ratio >= CREATE_GOAL),
    ],
    [
      gets.label,
      'All',
      rate(gets.svc.median.perSecond),
      rate(gets.baseline.median.perSecond),
      percent(gets.ratio),
      `≥ ${percent(GET_GOAL)}`,
      verdict(gets.ratio >= GET_GOAL),
    ],
  ];
  console.log(
    `\nAudit, end to end: median of ${settings.runs} runs of ${settings.requests} requests, ${settings.concurrency} in flight`,
  );
  console.log(renderTable(['operation', 'level', 'req/s', 'None req/s', 'ratio', 'goal', 'result'], rows));
  return creates.ratio >= CREATE_GOAL && gets.ratio >= GET_GOAL;
}
