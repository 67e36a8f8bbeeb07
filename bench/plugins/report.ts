import type { Comparison } from '../apiserver/throughput';
import { formatMs, percent, rate, renderTable, verdict, type Verdict } from '../support/report';
import type { StartTimes } from './start-wait';

/** The custom route must keep at least this share of the generated GET's throughput (bench/README.md, "plugins"). */
export const ROUTE_GOAL_RATIO = 0.5;

/**
 * A route that reads one object of the plugin's model through `ctx.client` must keep at least this share of the
 * generated GET of that same object (the client's requests answered in process).
 */
export const READ_ROUTE_GOAL_RATIO = 0.7;

/** The route's verdict: PASS when its req/s are at least `goal` (ROUTE_GOAL_RATIO) of the GET's. */
export const routeVerdict = (ratio: number, goal = ROUTE_GOAL_RATIO): Verdict => verdict(ratio >= goal);

/** One measured start, with the number of objects it found. */
export interface MeasuredStart {
  objects: number;
  times: StartTimes;
}

const p50p99 = (latency: { p50: number; p99: number }) => `${formatMs(latency.p50)} / ${formatMs(latency.p99)}`;

/**
 * The route against the generated GET: each side's median run, the ratio
 * and the verdict.
 *
 * @example routeTable(comparison) // a table whose row ends with `≥ 50%  PASS`
 */
export function routeTable(comparison: Comparison, goal = ROUTE_GOAL_RATIO): string {
  return renderTable(
    ['operation', 'route req/s', 'GET req/s', 'route / GET', 'route p50 / p99', 'GET p50 / p99', 'goal', 'result'],
    [
      [
        comparison.label,
        rate(comparison.svc.median.perSecond),
        rate(comparison.baseline.median.perSecond),
        percent(comparison.ratio),
        p50p99(comparison.svc.median.latency),
        p50p99(comparison.baseline.median.latency),
        `≥ ${percent(goal)}`,
        routeVerdict(comparison.ratio, goal),
      ],
    ],
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const signedSeconds = (ms: number) => (ms < 0 ? `-${seconds(-ms)}` : `+${seconds(ms)}`);

/**
 * The start over existing objects beside the same start over none (the
 * baseline), and what the objects added: times from spawning the apiserver.
 *
 * @example startTable(baseline, measured) // rows: 0 objects, 10000 objects, difference
 */
export function startTable(baseline: MeasuredStart, measured: MeasuredStart): string {
  const row = (what: string, t: StartTimes) => [what, seconds(t.healthy), seconds(t.started), seconds(t.served)];
  const added = (key: keyof StartTimes) => signedSeconds(measured.times[key] - baseline.times[key]);
  return renderTable(
    ['start', '/healthz 200', 'Plugin STARTED', 'model API serves (indexes built)'],
    [
      row(`${baseline.objects} objects (baseline)`, baseline.times),
      row(`${measured.objects} objects`, measured.times),
      ['difference', added('healthy'), added('started'), added('served')],
    ],
  );
}

/**
 * The index builds' rate: objects indexed per second per index, from what
 * the objects added to the time until the model's API serves, against the
 * same start over no objects (the plugin is STARTING while its indexes
 * build, so no span inside one start isolates the builds).
 *
 * @example indexRate({ objects: 0, times: { healthy: 500, started: 900, served: 900 } }, { objects: 10000, times: { healthy: 500, started: 2900, served: 2900 } }, 2) // '10,000 objects/s per index …'
 */
export function indexRate(baseline: MeasuredStart, measured: MeasuredStart, indexes: number): string {
  const span = measured.times.served - baseline.times.served;
  if (indexes === 0 || span <= 0) return '—';
  return `${rate((measured.objects - baseline.objects) / (span / 1000))} objects/s per index (${indexes} indexes built side by side, from the time the objects added)`;
}

/** Server CPU milliseconds per request of one side's median run; undefined when /proc could not tell. */
const serverCpuPerRequest = (side: Comparison['svc']): number | undefined => {
  const ms = side.cpu.server;
  return ms === undefined || ms <= 0 ? undefined : ms / side.median.requests;
};

/**
 * The route's throughput as a share of the GET's on a server bound by its
 * CPU: the GET's server CPU per request over the route's. Steadier than the
 * req/s on a shared machine (other work slows the runs, not their CPU per
 * request); the line says so, or that /proc gave no figure.
 *
 * @example cpuShareLine(comparison) // 'Server CPU per request: route 120 µs, GET 66 µs: …, the route at 55% of the GET's rate'
 */
export function cpuShareLine(comparison: Comparison): string {
  const route = serverCpuPerRequest(comparison.svc);
  const get = serverCpuPerRequest(comparison.baseline);
  if (route === undefined || get === undefined) return 'Server CPU per request: not available (/proc)';
  const micro = (ms: number) => `${Math.round(ms * 1000)} µs`;
  return (
    `Server CPU per request (median runs, /proc): route ${micro(route)}, GET ${micro(get)}: a server bound by its ` +
    `CPU would answer the route at ${percent(get / route)} of the GET's rate`
  );
}
