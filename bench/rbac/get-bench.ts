import { withPhaseProgress } from '../apiserver/phase-progress';
import { loadedName, personBody, PERSONS_PATH } from '../apiserver/persons';
import { throughputDetailTable } from '../apiserver/report';
import { compareThroughput, type Side } from '../apiserver/throughput';
import { runLoad } from '../support/http-load';
import type { ClusterServer, RbacCluster } from './cluster';
import { bindingBody, BINDINGS_PATH, roleBody, ROLES_PATH } from './noise';
import { percent, rate, renderTable, verdict } from '../support/report';

/** GET with RBAC must keep at least this share of AlwaysAllow's throughput. */
export const GET_GOAL_RATIO = 0.9;
/** The user whose bearer token the RBAC side's GETs carry, and what they hold. */
const READER = 'bench-reader';
const READER_ROLE = 'bench-person-reader';
const READER_PASSWORD = 'bench-reader-password';
const USERS_PATH = '/api/v1alpha1/users';
const TOKENS_PATH = '/apis/uc.api.security.svc.run/v1alpha1/personalaccesstokens';
const ACCESS_TOKEN_ANNOTATION = 'security.svc.run/access-token';
/** Requests in flight while loading the persons. */
const LOAD_CONCURRENCY = 32;

/** How hard and how long to measure. */
export interface GetBenchSettings {
  objects: number;
  requests: number;
  warmup: number;
  concurrency: number;
  runs: number;
}

/**
 * Creates a personal access token as `authorization` (a user's Basic
 * credentials) on `server` and answers its secret, shown this once.
 */
export async function createToken(server: ClusterServer, authorization: string): Promise<string> {
  const token = await server.api.expect<{ metadata: { annotations: Record<string, string> } }>(201, {
    method: 'POST',
    path: TOKENS_PATH,
    body: { spec: { displayName: 'bench' } },
    authorization,
  });
  return token.metadata.annotations[ACCESS_TOKEN_ANNOTATION];
}

/**
 * Makes the user READER, bound to a role that allows `get` on persons and
 * nothing else, and answers their bearer token; checks that RBAC does
 * enforce (the token lists no roles: 403).
 */
async function readerToken(server: ClusterServer, admin: string): Promise<string> {
  await server.api.expect(201, {
    method: 'POST',
    path: ROLES_PATH,
    authorization: admin,
    body: roleBody({
      metadata: { name: READER_ROLE },
      rules: [{ apiGroups: ['example.com'], resources: ['persons'], verbs: ['get'] }],
    }),
  });
  await server.api.expect(201, {
    method: 'POST',
    path: USERS_PATH,
    authorization: admin,
    body: { apiVersion: 'v1alpha1', kind: 'User', metadata: { name: READER }, spec: {} },
  });
  await server.api.expect(200, {
    method: 'PUT',
    path: `${USERS_PATH}/${READER}/password`,
    authorization: admin,
    body: { password: READER_PASSWORD },
  });
  await server.api.expect(201, {
    method: 'POST',
    path: BINDINGS_PATH,
    authorization: admin,
    body: bindingBody(`${READER}-${READER_ROLE}`, READER_ROLE, READER),
  });
  const token = await createToken(server, `Basic ${Buffer.from(`${READER}:${READER_PASSWORD}`).toString('base64')}`);
  await server.api.expect(403, { method: 'GET', path: ROLES_PATH, authorization: `Bearer ${token}` });
  return token;
}

/**
 * Part 1 of the end-to-end benchmark: GET one Person on the RBAC apiserver, as a user with
 * a bearer token, against the AlwaysAllow apiserver without credentials, on
 * the same Redis and objects, alternating measured runs. Prints the tables;
 * answers whether the goal was met.
 */
export async function runGetBench(
  cluster: RbacCluster,
  rbac: ClusterServer,
  open: ClusterServer,
  admin: string,
  settings: GetBenchSettings,
): Promise<boolean> {
  const loaded = await withPhaseProgress(`loading ${settings.objects} persons`, settings.objects, (update) =>
    runLoad({
      url: open.url,
      concurrency: LOAD_CONCURRENCY,
      requests: settings.objects,
      expectStatus: 201,
      requestAt: (i) => ({ method: 'POST', path: PERSONS_PATH, body: personBody(loadedName(i), i) }),
      onProgress: update,
    }),
  );
  if (loaded.errors > 0) throw new Error(`loading persons failed ${loaded.errors} times; first: ${loaded.firstError}`);
  const token = await readerToken(rbac, admin);
  const bearer = { Authorization: `Bearer ${token}` };
  await rbac.api.expect(401, { method: 'GET', path: `${PERSONS_PATH}/${loadedName(0)}` });

  const side = (server: ClusterServer, name: string, headers?: Record<string, string>): Side => ({
    name,
    url: server.url,
    pid: server.pid,
    expectStatus: 200,
    request: (seq) => ({ method: 'GET', path: `${PERSONS_PATH}/${loadedName(seq % settings.objects)}`, headers }),
  });
  const comparison = await compareThroughput(
    'GET one object',
    side(rbac, 'RBAC, bearer token', bearer),
    side(open, 'AlwaysAllow, anonymous'),
    { ...settings, redisPid: cluster.redisPid },
  );
  const met = comparison.ratio >= GET_GOAL_RATIO;

  console.log(
    `\nEnd-to-end GET one object: ${settings.objects} persons, median of ${settings.runs} runs of ${settings.requests} requests, ` +
      `${settings.concurrency} in flight (${Math.round(loaded.perSecond)} creates/s loading)`,
  );
  console.log(
    renderTable(
      [
        'operation',
        'RBAC req/s',
        'AlwaysAllow req/s',
        'RBAC/AlwaysAllow',
        'RBAC p50 / p99',
        'AlwaysAllow p50 / p99',
        'goal',
        'result',
      ],
      [
        [
          comparison.label,
          rate(comparison.svc.median.perSecond),
          rate(comparison.baseline.median.perSecond),
          percent(comparison.ratio),
          latency(comparison.svc.median.latency),
          latency(comparison.baseline.median.latency),
          `≥ ${percent(GET_GOAL_RATIO)}`,
          verdict(met),
        ],
      ],
    ),
  );
  console.log('\nPer server (CPU per request from /proc over the median run):');
  console.log(throughputDetailTable([comparison]));
  return met;
}

const latency = (l: { p50: number; p99: number }) => `${l.p50.toFixed(2)} / ${l.p99.toFixed(2)} ms`;
