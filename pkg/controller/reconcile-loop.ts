import { isConflict, isNotFound } from '../client/errors';
import type { Logger } from '../util/log';
import type { ControllerMetrics, ReconcileOutcome } from './metrics';
import type { RateLimiter } from './rate-limiter';
import { isTerminalError, type Reconciler, type Result } from './reconciler';
import { WorkQueue } from './workqueue';

/** What a reconcile loop runs: its name (in logs and metrics), the reconciler, how many keys at once, its retries. */
export interface ReconcileLoopConfig {
  name: string;
  reconciler: Reconciler;
  /** Reconciles that run at once (each on a different key). */
  workers: number;
  rateLimiter?: RateLimiter<string>;
  log: Logger;
  metrics?: ControllerMetrics;
}

/**
 * The part of a controller that does not care where keys come from: a work
 * queue of keys, `workers` loops taking keys from it (sample-controller's
 * processNextWorkItem), and what the reconciler's outcome does to the key
 * (controller-runtime's reconcileHandler: forget on success, requeue after a
 * delay, retry with backoff on an error, give up on a TerminalError). A
 * `Controller` feeds it from informers; any other event source calls `add`.
 */
export class ReconcileLoop {
  readonly queue: WorkQueue;
  private readonly stopper = new AbortController();
  private readonly log: Logger;
  private workers: Promise<void>[] = [];
  private stopping: Promise<void> | undefined;

  constructor(private readonly config: ReconcileLoopConfig) {
    this.queue = new WorkQueue({ rateLimiter: config.rateLimiter });
    this.log = config.log;
  }

  /** Aborted once `stop` was called: the `signal` every reconcile gets. */
  get signal(): AbortSignal {
    return this.stopper.signal;
  }

  /** Starts the workers (keys added before are queued and wait for them). */
  start(): void {
    if (this.workers.length > 0 || this.stopper.signal.aborted) return;
    this.workers = Array.from({ length: this.config.workers }, () => this.runWorker());
  }

  /** Queues a key for a reconcile (once, however often it is added before one starts). */
  add(key: string): void {
    this.queue.add(key);
  }

  /**
   * No new reconcile starts, the running ones' `signal` aborts, queued and
   * delayed keys are dropped; resolves when the running reconciles finished.
   */
  stop(): Promise<void> {
    this.stopping ??= this.shutDown();
    return this.stopping;
  }

  private async shutDown(): Promise<void> {
    this.stopper.abort();
    const drained = this.queue.shutDownWithDrain();
    await Promise.all(this.workers);
    await drained;
  }

  private async runWorker(): Promise<void> {
    for (let key = await this.queue.get(); key !== undefined; key = await this.queue.get()) {
      try {
        await this.reconcileKey(key);
      } finally {
        this.queue.done(key);
      }
    }
  }

  private async reconcileKey(key: string): Promise<void> {
    const log = this.log.child({ key });
    const started = performance.now();
    let outcome: ReconcileOutcome;
    try {
      const result: Result | void = await this.config.reconciler.reconcile(
        { name: key },
        { signal: this.stopper.signal, log },
      );
      outcome = this.afterSuccess(key, result);
    } catch (err) {
      outcome = this.afterFailure(key, err, log);
    }
    this.config.metrics?.observeReconcile(this.config.name, outcome, (performance.now() - started) / 1000);
  }

  private afterSuccess(key: string, result: Result | void): ReconcileOutcome {
    this.queue.forget(key);
    const delay = result?.requeueAfterMs ?? 0;
    if (delay <= 0) return 'success';
    this.queue.addAfter(key, delay);
    return 'requeue_after';
  }

  private afterFailure(key: string, err: unknown, log: Logger): ReconcileOutcome {
    if (isNotFound(err)) {
      this.queue.forget(key);
      return 'success';
    }
    if (isTerminalError(err)) {
      this.queue.forget(key);
      log.error({ err }, 'reconcile failed for good; not retrying until the object changes');
      return 'terminal_error';
    }
    this.queue.addRateLimited(key);
    if (this.stopper.signal.aborted) log.debug({ err }, 'reconcile ended by the stop');
    else if (isConflict(err)) log.info({ err: err as Error, retries: this.queue.retries(key) }, 'conflict; retrying');
    else log.error({ err, retries: this.queue.retries(key) }, 'reconcile failed; retrying with backoff');
    return 'error';
  }
}
