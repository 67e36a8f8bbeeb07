#!/usr/bin/env node
import { resolve } from 'node:path';
import { describeHost, hostInfo } from '../support/machine-info';
import { openRbacCluster, servePersons, type ClusterServer, type RbacCluster } from './cluster';
import { runConditionsBench } from './conditions-bench';
import { runConditionalWatch } from './condition-watch';
import { runDecisions, worldSize } from './decisions';
import { runInsight } from './insight';
import { runAuditBench } from './audit-bench';
import { createToken, runGetBench } from './get-bench';
import { loadNoise } from './noise';
import { parseRbacBenchOptions, type Part, type RbacBenchOptions } from './options';
import { runPropagation } from './propagation';
import { buildWorld } from './rbac-world';
import { goalsMet, renderTable, verdict } from '../support/report';
import { runBench } from '../support/run-bench';
import { withBenchSession } from '../support/session';

/**
 * The RBAC benchmark (see bench/README.md, "rbac"):
 * - decisions: in-process RbacAuthorizer decisions over 1,000 roles × 100
 *   rules and 10,000 bindings, beside a linear scan of every rule;
 * - get: end to end, GET one object on an RBAC apiserver with a bearer
 *   token against an AlwaysAllow one, on the same Redis, beside that noise;
 * - conditions: a conditional list page and GET against the same requests allowed
 *   without a condition (a field selector asking for the same objects), and a union
 *   of two conditions' page against its two lists;
 * - condition-watch: 1,000 watchers with two conditions each, 100 creates/s, beside
 *   unconditional watchers and a bare fan-out with no apiserver (the machine's floor);
 * - propagation: a role template's change until every apiserver replica
 *   enforces it, through the rbac-aggregation controller.
 *
 * @example npm run build && node dist/bench/rbac/main.js --only get,propagation
 */
runBench('RBAC', async () => {
  const opts = parseRbacBenchOptions(process.argv.slice(2));
  console.log(`svc RBAC benchmark, ${new Date().toISOString()}`);
  for (const line of describeHost(hostInfo())) console.log(`  ${line}`);
  console.log(`  Parts:  ${opts.parts.join(', ')}`);
  const goals: [Part, boolean][] = [];
  if (opts.parts.includes('decisions')) goals.push(['decisions', runDecisions(opts)]);
  if (opts.parts.includes('insight')) goals.push(['insight', runInsight(opts)]);
  if (opts.parts.some((p) => p === 'get' || p === 'conditions' || p === 'condition-watch' || p === 'propagation'))
    goals.push(...(await endToEnd(opts)));
  if (opts.parts.includes('audit'))
    goals.push(['audit', await withBenchSession(await openRbacCluster(), (cluster) => runAuditBench(cluster, opts))]);
  console.log(
    `\n${renderTable(
      ['part', 'result'],
      goals.map(([part, met]) => [part, verdict(met)]),
    )}`,
  );
  console.log(goalsMet(goals.map(([, met]) => met)));
});

/** The end-to-end parts, on one Redis with the world's roles and bindings stored as noise. */
async function endToEnd(opts: RbacBenchOptions): Promise<[Part, boolean][]> {
  const profileDir = opts.profile === undefined ? undefined : resolve(opts.profile);
  return withBenchSession(await openRbacCluster(profileDir), (cluster) => endToEndParts(cluster, opts));
}

async function endToEndParts(cluster: RbacCluster, opts: RbacBenchOptions): Promise<[Part, boolean][]> {
  console.log(
    `\nEnd to end: Redis ${cluster.redisDescription}; apiservers and the controller-manager are processes of their own`,
  );
  const first = await cluster.startApiserver('rbac-1', 'RBAC');
  const open = opts.parts.includes('get') ? await cluster.startApiserver('always-allow', 'AlwaysAllow') : undefined;
  await servePersons(cluster, open ? [first, open] : [first]);
  const admin = `Bearer ${await createToken(first, cluster.adminBasic)}`;
  const noise = await loadNoise(first, admin, buildWorld(worldSize(opts)));
  console.log(
    `Noise: ${noise.roles} roles of ${opts.rules} rules and ${noise.bindings} bindings of ${opts.users} other users, ` +
      `stored through the RBAC apiserver as admin in ${noise.seconds.toFixed(1)} s`,
  );

  const goals: [Part, boolean][] = [];
  if (open) goals.push(['get', await runGetBench(cluster, first, open, admin, opts)]);
  if (opts.parts.includes('conditions'))
    goals.push(['conditions', await runConditionsBench(cluster, first, admin, opts)]);
  if (opts.parts.includes('condition-watch'))
    goals.push(['condition-watch', await runConditionalWatch(cluster, first, admin)]);
  if (opts.parts.includes('propagation')) {
    const replicas: ClusterServer[] = [first];
    for (let i = 2; i <= opts.replicas; i++) replicas.push(await cluster.startApiserver(`rbac-${i}`, 'RBAC'));
    goals.push([
      'propagation',
      await runPropagation(replicas, () => cluster.startControllerManager(first), admin, opts.changes),
    ]);
  }
  return goals;
}
