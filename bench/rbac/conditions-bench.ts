import { withPhaseProgress } from '../apiserver/phase-progress';
import { MODELS_PATH, PERSONS_PATH } from '../apiserver/persons';
import { throughputDetailTable } from '../apiserver/report';
import { compareThroughput, type Comparison, type Side } from '../apiserver/throughput';
import { runLoad } from '../support/http-load';
import { percent, rate, renderTable, verdict } from '../support/report';
import type { ClusterServer, RbacCluster } from './cluster';
import { createToken, type GetBenchSettings } from './get-bench';
import { bindingBody, BINDINGS_PATH, roleBody, ROLES_PATH } from './noise';

/** A conditional request must keep at least this share of its unconditional twin's throughput. */
export const CONDITIONS_GOAL_RATIO = 0.9;
/** One person in this many is the author's. */
const OWNED_EVERY = 100;
const PAGE = 50;
const AUTHOR = 'bench-author';
const LISTER = 'bench-lister';
/** Allowed persons of the author's and those at desk d0 (one in DESKS): two differently shaped conditions. */
const UNION_READER = 'bench-union-reader';
const DESKS = 30;
const LOAD_CONCURRENCY = 32;
const USERS_PATH = '/api/v1alpha1/users';

const personOf = (i: number) =>
  JSON.stringify({
    apiVersion: 'example.com/v1alpha1',
    kind: 'Person',
    metadata: { name: `c-${i}`, labels: { desk: `d${i % DESKS}` } },
    spec: { name: i % OWNED_EVERY === 0 ? AUTHOR : `someone-${i % 997}`, age: i % 120 },
  });
const ownedName = (k: number) => `c-${k * OWNED_EVERY}`;

/** The largest type the union page is measured on (its alternatives grow with the type). */
const MAX_UNION_OBJECTS = 100_000;

type ModelObject = { spec: { indexes: { name: string; valueSets?: boolean }[] } };

/**
 * Declares `valueSets` on persons' `spec.name`, the field the author's condition names, as the content module does
 * on posts' `spec.owner`: one owner's objects are then one range of the index, whatever the type's size (an index
 * without it answers an equality page by collecting its matches, O(matches); docs/storage.md). Persons are empty
 * here, so the index is rebuilt at once.
 */
async function ownerIndexWithValueSets(server: ClusterServer, admin: string): Promise<void> {
  const path = `${MODELS_PATH}/persons.example.com`;
  const model = await server.api.expect<ModelObject>(200, { method: 'GET', path, authorization: admin });
  model.spec.indexes = model.spec.indexes.map((i) => (i.name === 'spec.name' ? { ...i, valueSets: true } : i));
  await server.api.expect(200, { method: 'PUT', path, authorization: admin, body: model });
}

/** Makes `user` with `rules` (a role of its own) and answers their bearer header. */
export async function userWith(server: ClusterServer, admin: string, user: string, rules: unknown[]): Promise<string> {
  const call = (status: number, method: 'POST' | 'PUT', path: string, body: unknown) =>
    server.api.expect(status, { method, path, authorization: admin, body });
  await call(201, 'POST', ROLES_PATH, roleBody({ metadata: { name: `${user}-role` }, rules } as never));
  await call(201, 'POST', USERS_PATH, { apiVersion: 'v1alpha1', kind: 'User', metadata: { name: user }, spec: {} });
  await call(200, 'PUT', `${USERS_PATH}/${user}/password`, { password: `${user}-password` });
  await call(201, 'POST', BINDINGS_PATH, bindingBody(`${user}-binding`, `${user}-role`, user));
  const basic = `Basic ${Buffer.from(`${user}:${user}-password`).toString('base64')}`;
  return `Bearer ${await createToken(server, basic)}`;
}

/**
 * Conditional rules end to end (docs/security.md, "Access to some objects"): an author whose role allows persons
 * only `where spec.name=${user.name}` (1% of the objects), against a user with an unconditional rule asking for the
 * same objects with the equivalent field selector, on the same apiserver and objects, alternating runs:
 * - a page of 50 of the author's persons;
 * - GET of one of the author's persons;
 * - a page of 50 of a reader allowed the author's persons or those at desk d0 (a union of two differently shaped
 *   conditions), against the unconditional user asking for the two alternatives apart (two lists per union page).
 * Prints the tables; answers whether each kept CONDITIONS_GOAL_RATIO.
 */
export async function runConditionsBench(
  cluster: RbacCluster,
  server: ClusterServer,
  admin: string,
  settings: GetBenchSettings,
): Promise<boolean> {
  const objects = settings.objects;
  await ownerIndexWithValueSets(server, admin);
  const loaded = await withPhaseProgress(
    `loading ${objects} persons, 1 in ${OWNED_EVERY} the author's`,
    objects,
    (update) =>
      runLoad({
        url: server.url,
        concurrency: LOAD_CONCURRENCY,
        requests: objects,
        expectStatus: 201,
        requestAt: (i) => ({
          method: 'POST',
          path: PERSONS_PATH,
          body: personOf(i),
          headers: { Authorization: admin },
        }),
        onProgress: update,
      }),
  );
  if (loaded.errors > 0) throw new Error(`loading persons failed ${loaded.errors} times; first: ${loaded.firstError}`);
  const rule = { apiGroups: ['example.com'], resources: ['persons'], verbs: ['get', 'list'] };
  const author = await userWith(server, admin, AUTHOR, [
    { ...rule, where: { fieldSelector: 'spec.name=${user.name}' } },
  ]);
  const lister = await userWith(server, admin, LISTER, [rule]);
  const unionReader = await userWith(server, admin, UNION_READER, [
    { ...rule, where: { fieldSelector: `spec.name=${AUTHOR}` } },
    { ...rule, where: { labelSelector: 'desk=d0' } },
  ]);
  const owned = Math.max(1, Math.ceil(objects / OWNED_EVERY));
  const pageOf = (query: string) => `${PERSONS_PATH}?limit=${PAGE}${query}`;
  const side = (name: string, authorization: string, path: (seq: number) => string): Side => ({
    name,
    url: server.url,
    pid: server.pid,
    expectStatus: 200,
    request: (seq) => ({ method: 'GET', path: path(seq), headers: { Authorization: authorization } }),
  });
  const options = { ...settings, redisPid: cluster.redisPid };
  const comparisons: Comparison[] = [
    await compareThroughput(
      `a page of ${PAGE} of 1% of ${objects}`,
      side('conditional', author, () => pageOf('')),
      side('field selector', lister, () => pageOf(`&fieldSelector=spec.name=${AUTHOR}`)),
      options,
    ),
    await compareThroughput(
      'GET one object',
      side('conditional', author, (seq) => `${PERSONS_PATH}/${ownedName(seq % owned)}`),
      side('unconditional', lister, (seq) => `${PERSONS_PATH}/${ownedName(seq % owned)}`),
      options,
    ),
  ];
  // The baseline asks for one alternative per request, each union page replacing two of them.
  const apart = [`&fieldSelector=spec.name=${AUTHOR}`, '&labelSelector=desk=d0'];
  // A union's exact total looks up each member of its smaller alternatives (docs/storage.md): at 1% and 3% of a
  // large type that is tens of thousands of lookups a page, which bench/scale's `unions` part measures on its own.
  if (objects <= MAX_UNION_OBJECTS) {
    const union = await compareThroughput(
      `a union page of ${PAGE} (1% or ${Math.round(100 / DESKS)}%) / its 2 lists`,
      side('conditional union', unionReader, () => pageOf('')),
      side('two lists, alternately', lister, (seq) => pageOf(apart[seq % 2])),
      options,
    );
    comparisons.push({ ...union, ratio: union.ratio * 2 });
  } else {
    console.log(`\nThe union page is not measured above ${MAX_UNION_OBJECTS} objects (see bench/scale --only unions).`);
  }
  const met = comparisons.every((c) => c.ratio >= CONDITIONS_GOAL_RATIO);
  console.log(
    `\nConditional rules: ${objects} persons (${owned} the author's), median of ${settings.runs} runs of ` +
      `${settings.requests} requests, ${settings.concurrency} in flight`,
  );
  console.log(
    renderTable(
      ['operation', 'conditional req/s', 'unconditional req/s', 'ratio', 'goal', 'result'],
      comparisons.map((c) => [
        c.label,
        rate(c.svc.median.perSecond),
        rate(c.baseline.median.perSecond),
        percent(c.ratio),
        `≥ ${percent(CONDITIONS_GOAL_RATIO)}`,
        verdict(c.ratio >= CONDITIONS_GOAL_RATIO),
      ]),
    ),
  );
  console.log('\nPer side (CPU per request from /proc over the median run):');
  console.log(throughputDetailTable(comparisons));
  return met;
}
