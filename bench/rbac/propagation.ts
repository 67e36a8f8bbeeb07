import { request as httpRequest } from 'node:http';
import { AGGREGATE_TO_PREFIX, ROLE_TEMPLATE_LABEL, type PolicyRule } from '../../pkg/auth/rbac';
import { withPhaseProgress, type ProgressUpdate } from '../apiserver/phase-progress';
import { summarizeLatencies, type LatencySummary } from '../support/latency-stats';
import type { ClusterServer, RunningControllerManager } from './cluster';
import { bindingBody, BINDINGS_PATH, roleBody, ROLES_PATH } from './noise';
import { formatMs, renderTable, verdict } from '../support/report';
import { sleep } from '../../pkg/util/backoff';
import { waitFor } from '../../pkg/util/wait-for';

/** A template change must be enforced on every replica within this, at p99. */
export const PROPAGATION_GOAL_MS = 1000;
/** A replica that has not answered by the new rules this long after the write counts as a failure. */
const DEADLINE_MS = 5000;
/** The pause between two access reviews of the same replica. */
const POLL_INTERVAL_MS = 2;
const TARGET = 'bench-target';
const TEMPLATE = 'bench-target-template';
const USER = 'bench-aggregated-user';
const REVIEWS_PATH = '/apis/authorization.svc.run/v1alpha1/accessreviews';
/** What every access review asks: may USER get a Person? */
const REVIEW = JSON.stringify({
  apiVersion: 'authorization.svc.run/v1alpha1',
  kind: 'AccessReview',
  spec: { user: USER, verb: 'get', group: 'example.com', resource: 'persons' },
});

/** The template's rules: `get` on persons (the user may get them), or `list` only (they may not). */
const templateRules = (allowGet: boolean): PolicyRule[] => [
  { apiGroups: ['example.com'], resources: ['persons'], verbs: [allowGet ? 'get' : 'list'] },
];

/** One replica's delays, write answered → the replica's access review answers by the new rules. */
interface ReplicaDelays {
  name: string;
  samples: number[];
  /** Changes this replica had not enforced within DEADLINE_MS. */
  late: number;
}

/**
 * Part 2 of the end-to-end benchmark: a user bound to role TARGET, which gets its only
 * rule through aggregation from TEMPLATE. `changes` times, the template's
 * rule toggles between allowing and not allowing `get` on persons (written
 * through the replicas in turn); for each replica, the time from the
 * write's answer until an access review on that replica answers by the new
 * rule (polled every POLL_INTERVAL_MS). Prints the tables; answers whether
 * the goal was met.
 */
export async function runPropagation(
  replicas: readonly ClusterServer[],
  controllerManager: () => Promise<RunningControllerManager>,
  admin: string,
  changes: number,
): Promise<boolean> {
  const writer = replicas[0];
  const started = performance.now();
  const cm = await controllerManager();
  await withPhaseProgress('controller-manager: first sync of every role', 1, async (update) =>
    untilIdle(cm.metricsUrl, update),
  );
  const synced = performance.now() - started;

  await writer.api.expect(201, {
    method: 'POST',
    path: ROLES_PATH,
    authorization: admin,
    body: roleBody({ metadata: { name: TARGET }, rules: [] }),
  });
  await writer.api.expect(201, {
    method: 'POST',
    path: ROLES_PATH,
    authorization: admin,
    body: roleBody({
      metadata: {
        name: TEMPLATE,
        labels: { [`${AGGREGATE_TO_PREFIX}${TARGET}`]: 'true', [ROLE_TEMPLATE_LABEL]: 'true' },
      },
      rules: templateRules(true),
    }),
  });
  await writer.api.expect(201, {
    method: 'POST',
    path: BINDINGS_PATH,
    authorization: admin,
    body: bindingBody(`${USER}-${TARGET}`, TARGET, USER),
  });
  for (const replica of replicas) {
    await waitFor(async () => (await reviewAllows(replica, admin)) === true, {
      timeoutMs: 30_000,
      what: `${replica.name} to enforce ${TARGET}'s aggregated rule`,
    });
  }

  const delays: ReplicaDelays[] = replicas.map((r) => ({ name: r.name, samples: [], late: 0 }));
  await withPhaseProgress(`propagation: ${changes} template changes`, changes, async (update) => {
    for (let change = 1; change <= changes; change++) {
      const allowGet = change % 2 === 0;
      const via = replicas[change % replicas.length];
      await via.api.expect(200, {
        method: 'PATCH',
        path: `${ROLES_PATH}/${TEMPLATE}`,
        authorization: admin,
        contentType: 'application/merge-patch+json',
        body: { rules: templateRules(allowGet) },
      });
      const written = performance.now();
      const seen = await Promise.all(replicas.map((r) => firstAnswer(r, admin, allowGet, written)));
      seen.forEach((ms, i) => {
        if (ms === undefined) delays[i].late++;
        else delays[i].samples.push(ms);
      });
      update(change);
    }
  });

  const all = summarizeLatencies(delays.flatMap((d) => d.samples));
  const late = delays.reduce((n, d) => n + d.late, 0);
  const met = late === 0 && all.p99 < PROPAGATION_GOAL_MS;
  console.log(
    `\nRole-template change → enforced on every replica: ${replicas.length} apiserver replicas on one Redis, ` +
      `one controller-manager (rbac-aggregation) on ${writer.name}, ${changes} changes written through the replicas in turn; ` +
      `access review polled every ${POLL_INTERVAL_MS} ms on each replica, deadline ${DEADLINE_MS} ms`,
  );
  console.log(`Controller-manager start → first sync of every role done (work queue empty): ${formatMs(synced)}`);
  const row = (name: string, s: LatencySummary, lateCount: number, judged: boolean) => [
    name,
    String(s.count),
    String(lateCount),
    formatMs(s.p50),
    formatMs(s.p99),
    formatMs(s.max),
    judged ? `p99 < ${formatMs(PROPAGATION_GOAL_MS)}` : '',
    judged ? verdict(met) : '',
  ];
  console.log(
    renderTable(
      ['replica', 'changes seen', `late (> ${DEADLINE_MS / 1000} s)`, 'p50', 'p99', 'max', 'goal', 'result'],
      [
        ...delays.map((d) => row(d.name, summarizeLatencies(d.samples), d.late, false)),
        row('all replicas', all, late, true),
      ],
    ),
  );
  return met;
}

/**
 * Milliseconds from `written` until `replica`'s access review answers
 * `allowGet`, polling; undefined past DEADLINE_MS.
 */
async function firstAnswer(
  replica: ClusterServer,
  admin: string,
  allowGet: boolean,
  written: number,
): Promise<number | undefined> {
  for (;;) {
    const allows = await reviewAllows(replica, admin);
    const now = performance.now();
    if (allows === allowGet) return now - written;
    if (now - written > DEADLINE_MS) return undefined;
    await sleep(POLL_INTERVAL_MS);
  }
}

/** Whether `replica` says USER may get persons. */
async function reviewAllows(replica: ClusterServer, admin: string): Promise<boolean> {
  const review = await replica.api.expect<{ status: { allowed: boolean } }>(201, {
    method: 'POST',
    path: REVIEWS_PATH,
    authorization: admin,
    body: REVIEW,
  });
  return review.status.allowed;
}

/**
 * Resolves once the role-aggregation controller is idle: it has reconciled,
 * its work queue is empty and its reconcile count has not moved over three
 * reads of its metrics, 100 ms apart.
 */
async function untilIdle(metricsUrl: string, update: ProgressUpdate): Promise<void> {
  let previous = -1;
  let quietReads = 0;
  await waitFor(
    async () => {
      const { depth, reconciles } = await controllerMetrics(metricsUrl);
      quietReads = depth === 0 && reconciles > 0 && reconciles === previous ? quietReads + 1 : 0;
      previous = reconciles;
      update(quietReads >= 3 ? 1 : 0, `${reconciles} reconciles, ${Number.isNaN(depth) ? '?' : depth} queued`);
      return quietReads >= 3;
    },
    { timeoutMs: 120_000, intervalMs: 100, what: 'the role-aggregation controller to go idle' },
  );
}

/** The work queue depth and the reconciles so far of rbac-aggregation, from the controller-manager's /metrics. */
function controllerMetrics(metricsUrl: string): Promise<{ depth: number; reconciles: number }> {
  return new Promise((resolve, reject) => {
    httpRequest(metricsUrl, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => {
        const values = (metric: string) =>
          text
            .split('\n')
            .filter((l) => l.startsWith(`${metric}{`) && l.includes('controller="rbac-aggregation"'))
            .map((l) => Number(l.slice(l.lastIndexOf(' ') + 1)));
        resolve({
          depth: values('svc_controller_workqueue_depth')[0] ?? Number.NaN,
          reconciles: values('svc_controller_reconcile_total').reduce((a, b) => a + b, 0),
        });
      });
    })
      .on('error', reject)
      .end();
  });
}
