import { MEMORY_REPORT_INTERVAL_MS } from './memory-watch';

const MIB = 1024 * 1024;

/** How late a worker's memory report may be before its thread counts as blocked: three reports missed. */
export const BLOCKED_AFTER_MS = 3 * MEMORY_REPORT_INTERVAL_MS;

/** What the watch reads; the process's own by default, fakes in tests. */
export interface BlockedMemoryClock {
  /** The resident memory of the whole process, in bytes. */
  rss(): number;
  now(): number;
}

const PROCESS_CLOCK: BlockedMemoryClock = { rss: () => process.memoryUsage.rss(), now: () => Date.now() };

/**
 * The memory check a plugin worker cannot make itself: its own reports come from its event loop, so a thread
 * blocked in a synchronous allocation loop reports nothing while its Buffers grow. Measured from the apiserver's
 * thread instead: each report sets a baseline (what the worker holds, and the process's resident memory then);
 * once reports are late, everything the process has grown by since is charged to the worker, and past its limit
 * `exceeded` is called with the reason. A blocked thread that allocates nothing is left alone (the liveness check
 * of a route that timed out takes care of it).
 */
export class BlockedMemoryWatch {
  private baseline?: { used: number; rss: number; at: number };
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly limitMb: number,
    private readonly exceeded: (reason: string) => void,
    private readonly clock: BlockedMemoryClock = PROCESS_CLOCK,
  ) {}

  /** Starts watching, the baseline taken now (the worker booted: its own reports follow). */
  start(intervalMs = MEMORY_REPORT_INTERVAL_MS / 2): void {
    this.reported(0);
    this.timer = setInterval(() => this.check(), intervalMs);
    this.timer.unref();
  }

  /** A report of the worker's: it holds `used` bytes (heap and Buffers) and its thread turns. */
  reported(used: number): void {
    this.baseline = { used, rss: this.clock.rss(), at: this.clock.now() };
  }

  /** Calls `exceeded` (once, then stops) when the worker's reports are late and the process grew past its budget. */
  check(): void {
    const base = this.baseline;
    if (!base || this.clock.now() - base.at < BLOCKED_AFTER_MS) return;
    const grown = this.clock.rss() - base.rss;
    if (base.used + grown <= this.limitMb * MIB) return;
    this.stop();
    const mib = (bytes: number) => Math.round(bytes / MIB);
    this.exceeded(
      `the plugin went past its memory limit of ${this.limitMb} MiB while its thread was blocked (it held ` +
        `${mib(base.used)} MiB, and the process grew by ${mib(grown)} MiB since); its worker was stopped`,
    );
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.baseline = undefined;
  }
}
