/** How long a plugin's thread may stay busy with no request under way before it is stopped; see BusyWatch. */
export const DEFAULT_BUSY_LIMIT_MS = 10_000;
/** The share of the time a thread must run code (not wait for events) to count as busy. */
export const BUSY_UTILIZATION = 0.8;
/** How often the host samples each worker's event loop utilisation. */
export const BUSY_SAMPLE_MS = 1000;

/**
 * Whether Node's event loop utilisation of a worker can be believed in a process started with `execArgv`. Under a
 * sampling profiler (`--cpu-prof`, `--prof`) an idle worker reads about 0.9 (the profiler's signals cut the loop's
 * waits short and the rest of each wait counts as busy), so every plugin would be stopped after the limit.
 */
export function utilizationTrusted(execArgv: readonly string[] = process.execArgv): boolean {
  return !execArgv.some((flag) => flag === '--cpu-prof' || flag === '--prof');
}

/** One sample: how much of the time since the last one the thread ran code, and whether it served requests. */
export interface BusySample {
  /** From 0 (idle) to 1 (never waited for an event), as `worker.performance.eventLoopUtilization()` tells it. */
  utilization: number;
  /** A request was under way, or was forwarded, during the sample: a busy thread then is doing its job. */
  requests: boolean;
  elapsedMs: number;
}

/**
 * Notices a plugin whose thread keeps running code while nobody asks it
 * anything: a synchronous loop, or one that spins through timers
 * (`setImmediate`, `setTimeout(…, 0)`) and so still answers messages, which
 * no ping finds late. Measured from the apiserver's thread (the worker's event
 * loop utilisation); past `limitMs` of samples each busy with no request, the
 * reason is returned once.
 */
export class BusyWatch {
  private busyForMs = 0;
  private reported = false;

  constructor(private readonly limitMs = DEFAULT_BUSY_LIMIT_MS) {}

  /** Adds a sample; the reason the plugin is stopped, the first time it has been busy for the limit. */
  add({ utilization, requests, elapsedMs }: BusySample): string | undefined {
    this.busyForMs = utilization >= BUSY_UTILIZATION && !requests ? this.busyForMs + elapsedMs : 0;
    if (this.reported || this.busyForMs < this.limitMs) return undefined;
    this.reported = true;
    return (
      `the plugin kept its thread busy (over ${BUSY_UTILIZATION * 100}% of the time) for ` +
      `${Math.round(this.busyForMs / 1000)}s with no request under way; its worker was stopped`
    );
  }
}
