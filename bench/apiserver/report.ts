import type { LoadResult } from '../support/http-load';
import type { CpuUsage } from '../support/process-cpu';
import { formatMs, percent, rate, renderTable, verdict } from '../support/report';
import type { Comparison } from './throughput';
import type { WatchCaseResult } from './watch-latency';

/** The goals: svc's share of its baseline's throughput, and the watch latency bound. */
export const GOALS = {
  /** Minimum svc/baseline throughput by operation label; an operation without one is reported only. */
  ratio: { 'GET one object': 0.5, create: 0.4 } as Record<string, number | undefined>,
  watchP99Ms: 50,
};

/** CPU time per request in microseconds, or `?` where it was not measured. */
function perRequest(cpu: CpuUsage, label: string, result: LoadResult): string {
  const ms = cpu[label];
  return ms === undefined ? '?' : `${Math.round((ms * 1000) / result.requests)} µs`;
}

/** Whether an operation has a throughput goal (list has none: it is reported beside its baseline only). */
export const hasGoal = (c: Comparison): boolean => GOALS.ratio[c.label] !== undefined;

/** Whether an operation met its goal (true for one without a goal). */
export const comparisonPasses = (c: Comparison): boolean => c.ratio >= (GOALS.ratio[c.label] ?? 0);

/** Whether a watch case met its goal: every event delivered, no watcher failed, p99 under the bound. */
export const watchPasses = (w: WatchCaseResult): boolean =>
  w.receivedEvents === w.expectedEvents && w.failedWatchers === 0 && w.latency.p99 < GOALS.watchP99Ms;

/** The throughput summary: each operation's median req/s on both servers, the ratio and the goal. */
export function throughputTable(comparisons: Comparison[]): string {
  return renderTable(
    ['operation', 'svc req/s', 'baseline req/s', 'svc/baseline', 'goal', 'result'],
    comparisons.map((c) => {
      const goal = GOALS.ratio[c.label];
      return [
        c.label,
        rate(c.svc.median.perSecond),
        rate(c.baseline.median.perSecond),
        percent(c.ratio),
        goal === undefined ? '—' : `≥ ${percent(goal)}`,
        goal === undefined ? '—' : verdict(comparisonPasses(c)),
      ];
    }),
  );
}

/** Per side: every run's req/s, the median run's latency, and the CPU each process spent per request. */
export function throughputDetailTable(comparisons: Comparison[]): string {
  return renderTable(
    ['operation', 'server', 'req/s of each run', 'p50', 'p99', 'server CPU/req', 'Redis CPU/req', 'client CPU/req'],
    comparisons.flatMap((c) =>
      [c.svc, c.baseline].map((side) => [
        c.label,
        side.name,
        side.runs.map((r) => rate(r.perSecond)).join(' / '),
        formatMs(side.median.latency.p50),
        formatMs(side.median.latency.p99),
        perRequest(side.cpu, 'server', side.median),
        perRequest(side.cpu, 'redis', side.median),
        perRequest(side.cpu, 'generator', side.median),
      ]),
    ),
  );
}

/**
 * The watch cases: delivery latency percentiles, completeness, the creates'
 * own latency (part of every delivery), what the processes spent, and the
 * verdict (svc only; the baseline fan-out is a floor to compare with).
 */
export function watchTable(cases: WatchCaseResult[]): string {
  return renderTable(
    [
      'watchers',
      'creates/s (sent)',
      'server',
      'events delivered',
      'p50',
      'p99',
      'max',
      'create p99',
      'server CPU',
      'Redis CPU',
      'client CPU',
      'client loop p99',
      'goal',
      'result',
    ],
    cases.map((w) => {
      const judged = w.server === 'svc';
      return [
        rate(w.watchers),
        `${rate(w.rate)} (${rate(w.writer.achievedRate)})`,
        w.server,
        `${rate(w.receivedEvents)}/${rate(w.expectedEvents)}`,
        formatMs(w.latency.p50),
        formatMs(w.latency.p99),
        formatMs(w.latency.max),
        formatMs(w.writer.createLatency.p99),
        share(w.cpu.server, w.seconds),
        share(w.cpu.redis, w.seconds),
        share(w.cpu.generator, w.seconds),
        formatMs(w.generatorLoopDelayP99),
        judged ? `p99 < ${GOALS.watchP99Ms} ms` : '—',
        judged ? verdict(watchPasses(w)) : '—',
      ];
    }),
  );
}

/** CPU milliseconds over a phase as a share of one core, e.g. `63%`. */
function share(ms: number | undefined, seconds: number): string {
  return ms === undefined ? '?' : `${Math.round(ms / (seconds * 10))}%`;
}
