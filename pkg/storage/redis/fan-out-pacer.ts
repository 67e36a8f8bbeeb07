import { performance } from 'node:perf_hooks';
import { sleep } from '../../util/backoff';

/** How a FanOutPacer is set up; the clock and the pause can be replaced in tests. */
export interface FanOutPacerOptions {
  /** The most of the process's time one type's fan-out may take (0–1). */
  share: number;
  /** Pauses shorter than this are skipped: a cheap fan-out is never held back. */
  minPauseMs: number;
  now?: () => number;
  pause?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Keeps a change stream's fan-out to a share of the process's time. Handing
 * one event to a thousand watchers costs a thousand socket writes, nearly
 * all of it in the kernel, and about as much for one event as for several
 * written together. So after a fan-out that took `t`, the stream reader
 * waits `t · (1 − share) / share` before it reads again: requests get the
 * rest of the time, and the events that arrive meanwhile go out together,
 * one write per watcher. A fan-out to a few watchers takes microseconds and
 * is not paced at all.
 */
export class FanOutPacer {
  private readonly now: () => number;
  private readonly pause: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(private readonly options: FanOutPacerOptions) {
    this.now = options.now ?? (() => performance.now());
    this.pause = options.pause ?? sleep;
  }

  /**
   * Runs `fanOut`, lets the deliveries it queued as microtasks (each
   * watcher's listener) run, and then pauses in proportion to the time all
   * of it took. Resolves early when `signal` aborts.
   */
  async run(fanOut: () => void, signal?: AbortSignal): Promise<void> {
    const started = this.now();
    fanOut();
    // Deliveries are queued microtasks: this continuation is queued after them.
    await Promise.resolve();
    const took = this.now() - started;
    const pauseMs = (took * (1 - this.options.share)) / this.options.share;
    if (pauseMs >= this.options.minPauseMs) await this.pause(pauseMs, signal);
  }
}
