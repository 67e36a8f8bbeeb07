import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { sleep } from '../../pkg/util/backoff';
import { LatencyRecorder, summarizeLatencies, type LatencySummary } from '../support/latency-stats';
import { measureCpu, type CpuUsage } from '../support/process-cpu';
import { writeAtRate, type WriterResult } from './paced-writer';
import { withPhaseProgress } from './phase-progress';
import { WatchStream } from './watch-stream';

/** One watch-delivery case: this many watchers while writes go in at this rate. */
export interface WatchCase {
  watchers: number;
  /** Creates per second. */
  rate: number;
  seconds: number;
  /** Seconds of creates at the same rate before measuring, delivered but not counted (0: none). */
  warmupSeconds: number;
}

/** What one watch case measured on one server. */
export interface WatchCaseResult extends WatchCase {
  /** `svc` or `baseline`. */
  server: string;
  writer: WriterResult;
  /** Events every watcher should have received: creates answered 201, times watchers. */
  expectedEvents: number;
  receivedEvents: number;
  /** Write sent → event received, over every event of every watcher. */
  latency: LatencySummary;
  /** The samples `latency` summarises (ms), to pool rounds of one side. */
  samples: Float64Array;
  /** Watchers that ended early or carried an ERROR event, with the first reason. */
  failedWatchers: number;
  firstFailure?: string;
  /** The load generator's own event-loop delay p99 (ms): high values mean the client, not the server, added latency. */
  generatorLoopDelayP99: number;
  /** CPU milliseconds used while writing by `server`, `redis` and `generator`. */
  cpu: CpuUsage;
}

/** Where a case runs: a server, how to watch and write on it, and the process ids to account CPU to. */
export interface WatchTarget {
  /** `svc` or `baseline`. */
  name: string;
  url: string;
  serverPid: number;
  redisPid?: number;
  /** The path every watcher GETs, asked for once just before they open (e.g. with the current resourceVersion). */
  watchPath(): Promise<string>;
  /** Where creates are POSTed. */
  createPath: string;
  /** Headers of every watch and of every create (e.g. `Authorization`), when the server needs them. */
  watchHeaders?: Record<string, string>;
  writeHeaders?: Record<string, string>;
}

/** How long watchers may take, after the last create was answered, to receive every event before the case counts what it has. */
const DRAIN_DEADLINE_MS = 30_000;
const DRAIN_POLL_MS = 20;
/** Watches are opened this many at a time. */
const OPEN_BATCH = 100;

/**
 * Runs one case on one server: opens `watchers` HTTP watches, creates
 * Persons stamped with their send time at `rate` per second for `seconds`,
 * waits until every watcher has every event (or a deadline passes), and
 * summarises the delivery latency over all events of all watchers.
 */
export async function runWatchCase(target: WatchTarget, spec: WatchCase, caseName: string): Promise<WatchCaseResult> {
  const watchUrl = `${target.url}${await target.watchPath()}`;
  const latencies = new LatencyRecorder();
  let measuring = false;
  const recorder = {
    record: (ms: number) => {
      if (measuring) latencies.record(ms);
    },
  };
  const streams = Array.from({ length: spec.watchers }, () => new WatchStream(watchUrl, recorder, target.watchHeaders));
  try {
    await withPhaseProgress(`${caseName}: ${target.name} opening watches`, spec.watchers, async (update) => {
      for (let at = 0; at < streams.length; at += OPEN_BATCH) {
        await Promise.all(streams.slice(at, at + OPEN_BATCH).map((s) => s.open()));
        update(Math.min(streams.length, at + OPEN_BATCH));
      }
    });
    if (spec.warmupSeconds > 0) await warmUp(target, spec, caseName, streams);
    measuring = true;
    const loopDelay = monitorEventLoopDelay({ resolution: 10 });
    loopDelay.enable();
    const total = Math.round(spec.rate * spec.seconds);
    const { result: writer, cpu } = await withPhaseProgress(`${caseName}: ${target.name} writing`, total, (update) =>
      measureCpu({ server: target.serverPid, redis: target.redisPid, generator: process.pid }, () =>
        writeAtRate({
          url: target.url,
          createPath: target.createPath,
          rate: spec.rate,
          seconds: spec.seconds,
          namePrefix: `w-${slug(target.name)}-${slug(caseName)}`,
          headers: target.writeHeaders,
          onProgress: (sent) => update(sent, `events received ${sum(streams)}`),
        }),
      ),
    );
    const expectedEvents = writer.created * spec.watchers;
    await withPhaseProgress(`${caseName}: ${target.name} draining`, expectedEvents, (update) =>
      untilDelivered(streams, writer.created, update),
    );
    loopDelay.disable();
    const failed = streams.filter((s) => s.failure !== undefined);
    return {
      ...spec,
      server: target.name,
      writer,
      expectedEvents,
      receivedEvents: sum(streams),
      latency: summarizeLatencies(latencies.values()),
      samples: latencies.values(),
      failedWatchers: failed.length,
      firstFailure: failed[0]?.failure,
      generatorLoopDelayP99: loopDelay.percentile(99) / 1e6,
      cpu,
    };
  } finally {
    for (const s of streams) s.close();
  }
}

/**
 * Writes at the case's rate for its warm-up seconds and waits until every
 * watcher has those events, then zeroes the watchers' counts: what a server
 * does in its first seconds under a new load (compiling hot paths, growing
 * buffers) is not what it does after, and neither server is measured on it.
 */
async function warmUp(target: WatchTarget, spec: WatchCase, caseName: string, streams: WatchStream[]): Promise<void> {
  const total = Math.round(spec.rate * spec.warmupSeconds);
  const writer = await withPhaseProgress(`${caseName}: ${target.name} warming up`, total, (update) =>
    writeAtRate({
      url: target.url,
      createPath: target.createPath,
      rate: spec.rate,
      seconds: spec.warmupSeconds,
      namePrefix: `warm-${slug(target.name)}-${slug(caseName)}`,
      headers: target.writeHeaders,
      onProgress: (sent) => update(sent),
    }),
  );
  if (writer.firstError !== undefined) throw new Error(`a warm-up create failed: ${writer.firstError}`);
  await untilDelivered(streams, writer.created, () => undefined);
  for (const s of streams) s.received = 0;
}

/**
 * Waits until every watcher has received `perWatcher` events or has failed
 * (a failed one gets no more), or DRAIN_DEADLINE_MS passes.
 */
async function untilDelivered(
  streams: WatchStream[],
  perWatcher: number,
  update: (done: number) => void,
): Promise<void> {
  const deadline = performance.now() + DRAIN_DEADLINE_MS;
  for (;;) {
    update(sum(streams));
    const settled = streams.every((s) => s.received >= perWatcher || s.failure !== undefined);
    if (settled || performance.now() > deadline) return;
    await sleep(DRAIN_POLL_MS);
  }
}

const sum = (streams: WatchStream[]): number => streams.reduce((n, s) => n + s.received, 0);

/** A case's or target's name as part of an object name (`bare fan-out` → `bare-fan-out`). */
const slug = (name: string): string => name.replace(/\W+/g, '-');
