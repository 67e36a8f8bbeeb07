import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The apiserver's Prometheus metrics, served at `/metrics`. */
export class ApiMetrics {
  readonly registry = new Registry();

  readonly requests = new Counter({
    name: 'svc_apiserver_requests_total',
    help: 'Requests by verb, resource and response code.',
    labelNames: ['verb', 'group', 'resource', 'code'] as const,
    registers: [this.registry],
  });

  readonly latency = new Histogram({
    name: 'svc_apiserver_request_duration_seconds',
    help: 'Request latency by verb and resource (watches excluded).',
    labelNames: ['verb', 'group', 'resource'] as const,
    registers: [this.registry],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });

  readonly watchers = new Gauge({
    name: 'svc_apiserver_watchers',
    help: 'Open watches by resource.',
    labelNames: ['group', 'resource'] as const,
    registers: [this.registry],
  });

  readonly storageErrors = new Counter({
    name: 'svc_apiserver_storage_errors_total',
    help: 'Requests that failed because storage was unavailable.',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }
}
