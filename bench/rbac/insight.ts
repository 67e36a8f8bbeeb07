import type { RequestAttributes } from '../../pkg/auth/attributes';
import { AccessIndex } from '../../pkg/auth/insight/access-index';
import { accessImpact, type ImpactWorld } from '../../pkg/auth/insight/impact';
import { whatCan } from '../../pkg/auth/insight/what-can';
import { whoCan } from '../../pkg/auth/insight/who-can';
import {
  computeEffective,
  DEPENDENCIES_ANNOTATION,
  enforcedRole,
  observedDefinitionOf,
  RbacAuthorizer,
  SimpleRoleGraph,
  withAdmissionStamp,
  type EnforcedRole,
  type RbacSource,
  type Role,
} from '../../pkg/auth/rbac';
import { denialDetails } from '../../pkg/apiserver/security/denial-details';
import { collectGarbage } from '../support/garbage';
import { LatencyRecorder, summarizeLatencies, type LatencySummary } from '../support/latency-stats';
import { formatMs, renderTable, verdict } from '../support/report';
import { worldSize, type DecisionOptions } from './decisions';
import { buildRequests, buildWorld, seededRandom } from './rbac-world';

/** The role every `staff-<i>` user is bound to through one binding, and the template it depends on. */
const STAFF_ROLE = 'staff';
const STAFF_TEMPLATE = 'role-2';

/**
 * The access-insight part (in process): who-can and what-can answers over the
 * world, the reverse index's memory and its update cost per role or binding
 * change beside a full rebuild, an impact review of a template change reaching
 * many users, and what a 403's nearest miss costs beside a bare decision.
 */
export function runInsight(opts: DecisionOptions & { staff: number }): boolean {
  console.log(
    `\nAccess insight (in process): ${opts.roles} roles × ${opts.rules} rules, ${opts.bindings} bindings over ` +
      `${opts.users} users, and one binding of ${opts.staff} users to a role depending on ${STAFF_TEMPLATE}`,
  );
  const world = buildWorld(worldSize(opts));
  const staffRole = withAdmissionStamp<Role>({
    apiVersion: 'v1alpha1',
    kind: 'Role',
    metadata: { name: STAFF_ROLE, generation: 1, annotations: { [DEPENDENCIES_ANNOTATION]: `["${STAFF_TEMPLATE}"]` } },
    rules: [],
  });
  const graph = new SimpleRoleGraph([...world.roles, staffRole]);
  const enforced = new Map<string, EnforcedRole>();
  for (const name of graph.names()) enforced.set(name, materialised(graph, name));
  const bindings = new Map<string, { role: string; subjects: string[] }>();
  const byUser = new Map<string, { binding: string; role: string }[]>();
  for (const [user, list] of world.bindings)
    for (const { binding, role } of list) bindings.set(binding, { role, subjects: [user] });
  const staff = Array.from({ length: opts.staff }, (_, i) => `staff-${i}`);
  bindings.set('staff', { role: STAFF_ROLE, subjects: staff });
  for (const [binding, { role, subjects }] of bindings)
    for (const user of subjects) byUser.set(user, [...(byUser.get(user) ?? []), { binding, role }]);
  const source: RbacSource = { bindingsOf: (u) => byUser.get(u) ?? [], role: (n) => enforced.get(n) };

  const build = () => {
    const index = new AccessIndex();
    for (const [name, role] of enforced) index.roleChanged(name, role);
    for (const [name, binding] of bindings) index.bindingChanged(name, binding);
    return index;
  };
  collectGarbage();
  const heapBefore = process.memoryUsage().heapUsed;
  const rebuildStarted = performance.now();
  const index = build();
  const rebuildMs = performance.now() - rebuildStarted;
  collectGarbage();
  const indexBytes = process.memoryUsage().heapUsed - heapBefore;

  const rnd = seededRandom(7);
  const rulesOf = (r: string) => enforced.get(r)?.ruleSet.rules ?? [];
  const requests = buildRequests(world, rulesOf, 2_000, 3);
  const whoCanTimes = time(requests, ({ attrs }) => whoCan(index, source, attrs, { limit: 100, after: '' }));
  const whatCanTimes = time(requests, ({ user }) => whatCan(source, user));

  const roleNames = [...enforced.keys()];
  const bindingNames = [...bindings.keys()].filter((b) => b !== 'staff');
  const fresh = buildRequests(world, rulesOf, 2_000, 11);
  const { whoCanFresh, whoCanCold } = timeWhoCanAfresh(index, source, requests, fresh, () => {
    const role = roleNames[Math.floor(rnd() * roleNames.length)];
    const binding = bindingNames[Math.floor(rnd() * bindingNames.length)];
    index.roleChanged(role, enforced.get(role));
    index.bindingChanged(binding, { ...bindings.get(binding)! });
  });
  const roleUpdate = timeN(1_000, () => {
    const name = roleNames[Math.floor(rnd() * roleNames.length)];
    return () => index.roleChanged(name, enforced.get(name));
  });
  const bindingUpdate = timeN(1_000, () => {
    const name = bindingNames[Math.floor(rnd() * bindingNames.length)];
    const binding = bindings.get(name)!;
    return () => index.bindingChanged(name, { ...binding });
  });

  const impactWorld: ImpactWorld = {
    graph,
    bindingsOf: source.bindingsOf,
    usersOf: (role) => index.usersOf(role),
    binding: (name) => bindings.get(name),
    isDisabled: () => false,
    userExists: () => true,
  };
  const template = graph.role(STAFF_TEMPLATE)!;
  const changed = {
    ...template,
    rules: [...(template.rules ?? []), { verbs: ['get'], apiGroups: ['x.io'], resources: ['things'] }],
  };
  const impactTimes = timeN(
    5,
    () => () => accessImpact(impactWorld, { kind: 'role', name: STAFF_TEMPLATE, role: changed }),
  );
  const impact = accessImpact(impactWorld, { kind: 'role', name: STAFF_TEMPLATE, role: changed });

  const rbac = new RbacAuthorizer(source);
  const details = denialDetails(source, index);
  const denied = requests.filter(({ user, attrs }) => rbac.decide(user, attrs).decision !== 'Allow');
  const bare = time(denied, ({ user, attrs }) => rbac.decide(user, attrs));
  const withMiss = time(denied, ({ user, attrs }) => {
    rbac.decide(user, attrs);
    details(user, attrs);
  });

  const goals = {
    whoCan: [whoCanTimes, whoCanCold, whoCanFresh].every((t) => t.p99 < 5),
    whatCan: whatCanTimes.p99 < 5,
    update: [roleUpdate, bindingUpdate].every((t) => t.p99 < 10),
    impact: impactTimes.max < 200 && impact.usersAffected >= opts.staff,
    miss: (withMiss.p50 - bare.p50) * 1000 < 100,
  };
  const row = (what: string, t: LatencySummary, goal: string, met: boolean) => [
    what,
    String(t.count),
    formatMs(t.p50),
    formatMs(t.p99),
    formatMs(t.max),
    goal,
    verdict(met),
  ];
  console.log(
    renderTable(
      ['measurement', 'n', 'p50', 'p99', 'max', 'goal', 'result'],
      [
        row('who-can (100 users a page), asked before', whoCanTimes, 'p99 < 5 ms', whoCanTimes.p99 < 5),
        row('who-can, asked before, a role and a binding changed since', whoCanCold, 'p99 < 5 ms', whoCanCold.p99 < 5),
        row('who-can, never asked before', whoCanFresh, 'p99 < 5 ms', whoCanFresh.p99 < 5),
        row('what-can', whatCanTimes, 'p99 < 5 ms', goals.whatCan),
        row('index: one role changed', roleUpdate, 'p99 < 10 ms', roleUpdate.p99 < 10),
        row('index: one binding changed', bindingUpdate, 'p99 < 10 ms', bindingUpdate.p99 < 10),
        row(
          `impact: ${STAFF_TEMPLATE} changed (${impact.usersAffected} users)`,
          impactTimes,
          'max < 200 ms',
          goals.impact,
        ),
        row('bare 403 decision (baseline)', bare, '', true),
        row('403 decision + nearest miss', withMiss, '< 100 µs more (p50)', goals.miss),
      ],
    ),
  );
  console.log(
    `Index: full rebuild ${formatMs(rebuildMs)} (baseline for the updates above), ` +
      `${(indexBytes / 1024 / 1024).toFixed(1)} MB of heap; nearest miss adds ` +
      `${((withMiss.p50 - bare.p50) * 1000).toFixed(1)} µs at p50, ${((withMiss.p99 - bare.p99) * 1000).toFixed(1)} µs at p99`,
  );
  return Object.values(goals).every(Boolean);
}

/** A role with its status as the aggregation controller would write it (so the authoriser enforces it). */
function materialised(graph: SimpleRoleGraph, name: string): EnforcedRole {
  const role = graph.role(name)!;
  const effective = computeEffective(graph, name);
  return enforcedRole({
    ...role,
    status: {
      observedGeneration: role.metadata.generation,
      observedDefinition: observedDefinitionOf(role),
      ...effective,
    },
  });
}

function time<T>(items: readonly T[], run: (item: T) => unknown): LatencySummary {
  const recorder = new LatencyRecorder();
  for (const item of items) run(item); // warm-up: caches and JIT
  for (const item of items) {
    const started = performance.now();
    run(item);
    recorder.record(performance.now() - started);
  }
  return summarizeLatencies(recorder.values());
}

/**
 * Who-can on questions never asked before (`fresh`, another draw of the same kind: every candidate role's rules are
 * checked), and on questions asked before, each after `change` (a role and a binding changed: the kept answers are
 * brought up to date). Two hundred changes in all, fewer than the index catches up across.
 */
function timeWhoCanAfresh(
  index: AccessIndex,
  source: RbacSource,
  asked: readonly { attrs: RequestAttributes }[],
  fresh: readonly { attrs: RequestAttributes }[],
  change: () => void,
) {
  const page = { limit: 100, after: '' };
  let at = 0;
  const whoCanFresh = timeN(fresh.length, () => {
    const { attrs } = fresh[at++];
    return () => whoCan(index, source, attrs, page);
  });
  at = 0;
  const whoCanCold = timeN(200, () => {
    change();
    const { attrs } = asked[at++];
    return () => whoCan(index, source, attrs, page);
  });
  return { whoCanFresh, whoCanCold };
}

function timeN(n: number, prepare: () => () => unknown): LatencySummary {
  const recorder = new LatencyRecorder();
  for (let i = 0; i < n; i++) {
    const run = prepare();
    const started = performance.now();
    run();
    recorder.record(performance.now() - started);
  }
  return summarizeLatencies(recorder.values());
}
