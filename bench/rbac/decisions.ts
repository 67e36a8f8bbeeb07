import type { RequestAttributes } from '../../pkg/auth/attributes';
import type { UserInfo } from '../../pkg/auth/user';
import {
  computeEffective,
  enforcedRole,
  RbacAuthorizer,
  SimpleRoleGraph,
  type EffectiveRole,
  type EnforcedRole,
  type PolicyRule,
  type RbacSource,
} from '../../pkg/auth/rbac';
// imported from its module, not the index: CommonJS re-exports are getters, which the baseline's inner loop would pay for
import { ruleAllows } from '../../pkg/auth/rbac/rules';
import { collectGarbage } from '../support/garbage';
import { LatencyRecorder, summarizeLatencies, type LatencySummary } from '../support/latency-stats';
import { formatMs, formatRatio, renderTable, verdict } from '../support/report';
import { buildRequests, buildWorld, type WorldSize } from './rbac-world';

/** The world's size and how many decisions each contender is timed on. */
export interface DecisionOptions {
  roles: number;
  rules: number;
  users: number;
  bindings: number;
  decisions: number;
}

/** The world the decisions run over and the end-to-end parts store as noise. */
export const worldSize = (opts: DecisionOptions): WorldSize => ({
  roles: opts.roles,
  rulesPerRole: opts.rules,
  users: opts.users,
  bindings: opts.bindings,
});

/** Distinct requests; the timed loop cycles through them. */
const DISTINCT_REQUESTS = 50_000;
const GOAL_P99_MS = 0.02;

type Request = { user: UserInfo; attrs: RequestAttributes };
/** Per-call percentiles, and the mean of an untimed batch of the same calls (no timer overhead). */
type Timed = LatencySummary & { mean: number };

/**
 * The in-process part: RbacAuthorizer.decide over the world's
 * roles beside the linear scan on the same requests; computeEffective and
 * RuleSet compilation for every role. Prints its tables and answers whether
 * the goal was met; throws when the two contenders disagree.
 */
export function runDecisions(opts: DecisionOptions): boolean {
  console.log(
    `\nIn-process decisions: ${opts.roles} roles × ${opts.rules} rules, ${opts.bindings} bindings over ${opts.users} users, ` +
      `${opts.decisions} decisions per contender`,
  );

  const world = buildWorld(worldSize(opts));
  const graph = new SimpleRoleGraph(world.roles);

  const effectiveTimes = new LatencyRecorder();
  const effective = new Map<string, EffectiveRole>();
  collectGarbage();
  const effectiveStarted = performance.now();
  for (const role of world.roles) {
    const started = performance.now();
    effective.set(role.metadata.name!, computeEffective(graph, role.metadata.name!));
    effectiveTimes.record(performance.now() - started);
  }
  const effectiveTotal = performance.now() - effectiveStarted;

  const compileStarted = performance.now();
  const enforced = new Map<string, EnforcedRole>();
  for (const role of world.roles) {
    enforced.set(
      role.metadata.name!,
      enforcedRole({ ...role, status: { observedGeneration: 1, ...effective.get(role.metadata.name!)! } }),
    );
  }
  const compileTotal = performance.now() - compileStarted;
  const effectiveSizes = [...effective.values()].map((e) => e.rules.length).sort((a, b) => a - b);

  const source: RbacSource = {
    bindingsOf: (user) => world.bindings.get(user) ?? [],
    role: (name) => enforced.get(name),
  };
  const authorizer = new RbacAuthorizer(source);
  const requests = buildRequests(world, (role) => effective.get(role)?.rules ?? [], DISTINCT_REQUESTS);
  const linear = linearScan(source);

  let allowed = 0;
  for (const { user, attrs } of requests) {
    const fast = authorizer.decide(user, attrs).decision === 'Allow';
    if (fast !== linear(user, attrs))
      throw new Error(`RBAC and the linear scan disagree on ${JSON.stringify(attrs)} for ${user.name}`);
    if (fast) allowed++;
  }

  const baseline = timeDecisions(requests, opts.decisions, (user, attrs) => linear(user, attrs));
  const decide = timeDecisions(
    requests,
    opts.decisions,
    (user, attrs) => authorizer.decide(user, attrs).decision === 'Allow',
  );

  const met = decide.p99 < GOAL_P99_MS;
  const us = (ms: number) => (ms >= 1 ? formatMs(ms) : `${(ms * 1000).toPrecision(3)} µs`);
  console.log(
    `\nWorld: effective rules per role p50 ${effectiveSizes[Math.floor(effectiveSizes.length / 2)]}, ` +
      `max ${effectiveSizes[effectiveSizes.length - 1]}; ${DISTINCT_REQUESTS} distinct requests, ` +
      `${((100 * allowed) / requests.length).toFixed(1)}% allowed; RuleSet compile for all roles ${formatMs(compileTotal)}`,
  );
  console.log(
    '\nOne authorisation decision (RbacAuthorizer.decide, the synchronous core of authorize; ' +
      "baseline: ruleAllows over every effective rule of the user's roles, first match wins)",
  );
  console.log(
    renderTable(
      ['contender', 'decisions', 'mean (batch)', 'p50', 'p99', 'max', 'p99 vs baseline', 'goal', 'result'],
      [
        [
          'baseline: linear scan',
          String(baseline.count),
          us(baseline.mean),
          us(baseline.p50),
          us(baseline.p99),
          us(baseline.max),
          '',
          '',
          '',
        ],
        [
          'RbacAuthorizer.decide',
          String(decide.count),
          us(decide.mean),
          us(decide.p50),
          us(decide.p99),
          us(decide.max),
          `${formatRatio(baseline.p99 / decide.p99)} faster`,
          'p99 < 20 µs',
          verdict(met),
        ],
      ],
    ),
  );
  const e = summarizeLatencies(effectiveTimes.values());
  console.log(`\ncomputeEffective for all ${opts.roles} roles`);
  console.log(
    renderTable(
      ['measurement', 'roles', 'p50', 'p99', 'max', 'total'],
      [
        [
          'computeEffective per role',
          String(e.count),
          formatMs(e.p50),
          formatMs(e.p99),
          formatMs(e.max),
          formatMs(effectiveTotal),
        ],
      ],
    ),
  );
  return met;
}

/** The baseline: for each role the user holds, scan its effective rules with ruleAllows. */
function linearScan(source: RbacSource): (user: UserInfo, attrs: RequestAttributes) => boolean {
  const scan = (rules: readonly PolicyRule[], attrs: RequestAttributes) => {
    for (let i = 0; i < rules.length; i++) if (ruleAllows(rules[i], attrs)) return true;
    return false;
  };
  return (user, attrs) => {
    for (const { role } of source.bindingsOf(user.name)) {
      const r = source.role(role);
      if (r !== undefined && scan(r.ruleSet.rules, attrs)) return true;
    }
    for (const group of user.groups) {
      const r = source.role(group);
      if (r !== undefined && scan(r.ruleSet.rules, attrs)) return true;
    }
    return false;
  };
}

/** Times `decide` on `decisions` requests (cycling), each call on its own, after a warm-up pass. */
function timeDecisions(
  requests: Request[],
  decisions: number,
  decide: (user: UserInfo, attrs: RequestAttributes) => boolean,
): Timed {
  for (const { user, attrs } of requests) decide(user, attrs);
  collectGarbage();
  const batchStarted = performance.now();
  let batchSink = 0;
  for (let i = 0; i < decisions; i++) {
    const { user, attrs } = requests[i % requests.length];
    if (decide(user, attrs)) batchSink++;
  }
  const mean = (performance.now() - batchStarted) / decisions;
  collectGarbage();
  const recorder = new LatencyRecorder();
  let sink = 0;
  for (let i = 0; i < decisions; i++) {
    const { user, attrs } = requests[i % requests.length];
    const started = performance.now();
    if (decide(user, attrs)) sink++;
    recorder.record(performance.now() - started);
  }
  if (sink !== batchSink) throw new Error('the timed and the batch run disagree');
  return { ...summarizeLatencies(recorder.values()), mean };
}
