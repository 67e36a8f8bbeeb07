import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** The outcome of one reconcile, as the `result` label of `svc_controller_reconcile_total`. */
export type ReconcileOutcome = 'success' | 'requeue_after' | 'error' | 'terminal_error';

/**
 * The controller runtime's Prometheus metrics, registered in the registry
 * given: queue depth, reconcile count, duration and errors per
 * controller, and leader status.
 */
export class ControllerMetrics {
  private readonly depthSources = new Map<string, () => number>();

  readonly queueDepth: Gauge<'controller'>;
  readonly reconciles: Counter<'controller' | 'result'>;
  readonly reconcileErrors: Counter<'controller'>;
  readonly reconcileDuration: Histogram<'controller'>;
  readonly leader: Gauge<'lease'>;

  constructor(registry: Registry) {
    const depthSources = this.depthSources;
    this.queueDepth = new Gauge({
      name: 'svc_controller_workqueue_depth',
      help: 'Keys waiting in a controller work queue.',
      labelNames: ['controller'] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const [controller, depth] of depthSources) this.set({ controller }, depth());
      },
    });
    this.reconciles = new Counter({
      name: 'svc_controller_reconcile_total',
      help: 'Reconciles per controller and result.',
      labelNames: ['controller', 'result'] as const,
      registers: [registry],
    });
    this.reconcileErrors = new Counter({
      name: 'svc_controller_reconcile_errors_total',
      help: 'Reconciles that failed (retried or terminal).',
      labelNames: ['controller'] as const,
      registers: [registry],
    });
    this.reconcileDuration = new Histogram({
      name: 'svc_controller_reconcile_duration_seconds',
      help: 'Time per reconcile.',
      labelNames: ['controller'] as const,
      registers: [registry],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    });
    this.leader = new Gauge({
      name: 'svc_controller_leader',
      help: '1 while this process holds the lease, else 0.',
      labelNames: ['lease'] as const,
      registers: [registry],
    });
  }

  /** Reports a controller's queue depth at every scrape, until `untrackQueue`. */
  trackQueue(controller: string, depth: () => number): void {
    this.depthSources.set(controller, depth);
  }

  untrackQueue(controller: string): void {
    this.depthSources.delete(controller);
  }

  /** Records one reconcile. */
  observeReconcile(controller: string, outcome: ReconcileOutcome, seconds: number): void {
    this.reconciles.inc({ controller, result: outcome });
    this.reconcileDuration.observe({ controller }, seconds);
    if (outcome === 'error' || outcome === 'terminal_error') this.reconcileErrors.inc({ controller });
  }
}
