import { runLoad, type LoadRequest, type LoadResult } from '../support/http-load';
import { measureCpu, type CpuUsage } from '../support/process-cpu';
import { withPhaseProgress } from './phase-progress';

/** One side of a comparison: a server and the requests it gets. */
export interface Side {
  /** e.g. `svc` or `baseline`. */
  name: string;
  url: string;
  /** Server process id, for CPU accounting. */
  pid: number;
  /** The `seq`-th request this side is sent; `seq` grows across warm-up and every run, so names can be unique. */
  request(seq: number): LoadRequest;
  expectStatus: number;
}

/** How hard and how long to measure. */
export interface ThroughputSettings {
  concurrency: number;
  /** Requests per measured run. */
  requests: number;
  /** Requests sent to each side before measuring. */
  warmup: number;
  /** Measured runs per side; the median run is reported. */
  runs: number;
  /** The Redis server's process id, when known (CPU accounting). */
  redisPid?: number;
}

/** One side's measured runs. */
export interface SideResult {
  name: string;
  runs: LoadResult[];
  /** The run with the median throughput. */
  median: LoadResult;
  /** CPU milliseconds used during the median run by `server`, `redis` and `generator`. */
  cpu: CpuUsage;
}

/** An operation measured on the apiserver and on its baseline. */
export interface Comparison {
  label: string;
  svc: SideResult;
  baseline: SideResult;
  /** svc's median throughput over the baseline's. */
  ratio: number;
}

/**
 * Measures `label` on both sides: warms each up, then alternates measured
 * runs (svc, baseline, svc, baseline, …) so that drift on a shared machine
 * hits both alike, and reports each side's median run.
 */
export async function compareThroughput(
  label: string,
  svc: Side,
  baseline: Side,
  settings: ThroughputSettings,
): Promise<Comparison> {
  const sequences = new Map<string, number>([
    [svc.name, 0],
    [baseline.name, 0],
  ]);
  const measure = (side: Side, requests: number, what: string) =>
    withPhaseProgress(`${label}: ${side.name} ${what}`, requests, (update) =>
      measureCpu({ server: side.pid, redis: settings.redisPid, generator: process.pid }, () =>
        runLoad({
          url: side.url,
          concurrency: settings.concurrency,
          requests,
          expectStatus: side.expectStatus,
          requestAt: () => {
            const seq = sequences.get(side.name) ?? 0;
            sequences.set(side.name, seq + 1);
            return side.request(seq);
          },
          onProgress: (done) => update(done),
        }),
      ),
    );

  for (const side of [svc, baseline]) checked(side, (await measure(side, settings.warmup, 'warm-up')).result);
  const measured = new Map<string, { result: LoadResult; cpu: CpuUsage }[]>([
    [svc.name, []],
    [baseline.name, []],
  ]);
  for (let run = 1; run <= settings.runs; run++) {
    for (const side of [svc, baseline]) {
      const outcome = await measure(side, settings.requests, `run ${run}/${settings.runs}`);
      checked(side, outcome.result);
      measured.get(side.name)?.push(outcome);
    }
  }
  const svcResult = sideResult(svc.name, measured.get(svc.name) ?? []);
  const baselineResult = sideResult(baseline.name, measured.get(baseline.name) ?? []);
  return {
    label,
    svc: svcResult,
    baseline: baselineResult,
    ratio: svcResult.median.perSecond / baselineResult.median.perSecond,
  };
}

/** A run with errors measures the wrong thing: stop and say what the server answered. */
function checked(side: Side, result: LoadResult): void {
  if (result.errors > 0) {
    throw new Error(
      `${side.name}: ${result.errors} of ${result.requests} requests failed; first: ${result.firstError}`,
    );
  }
}

/** The side's runs, with the one of median throughput (the lower middle one for an even count). */
function sideResult(name: string, outcomes: { result: LoadResult; cpu: CpuUsage }[]): SideResult {
  const ranked = [...outcomes].sort((a, b) => a.result.perSecond - b.result.perSecond);
  const chosen = ranked[Math.floor((ranked.length - 1) / 2)];
  return { name, runs: outcomes.map((o) => o.result), median: chosen.result, cpu: chosen.cpu };
}
