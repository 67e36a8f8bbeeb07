import { total, type Sample } from './prometheus';

/** What the dashboard draws at one instant, from the apiserver's `/metrics`. */
export interface ServerStats {
  /** Seconds since the epoch. */
  at: number;
  requests: number;
  serverErrors: number;
  watchers: number;
  memoryBytes: number;
  /** The store's memory (Redis `used_memory`): undefined for a store that has no server of its own (file, memory). */
  storeMemoryBytes?: number;
}

const STORE_MEMORY = 'svc_storage_used_memory_bytes';

/** The counters and gauges the dashboard follows, read from one scrape. */
export function statsOf(samples: readonly Sample[], at: number): ServerStats {
  return {
    at,
    requests: total(samples, 'svc_apiserver_requests_total'),
    serverErrors: total(samples, 'svc_apiserver_requests_total', (l) => Number(l.code) >= 500),
    watchers: total(samples, 'svc_apiserver_watchers'),
    memoryBytes: total(samples, 'process_resident_memory_bytes'),
    storeMemoryBytes: samples.some((s) => s.name === STORE_MEMORY) ? total(samples, STORE_MEMORY) : undefined,
  };
}

/** One point of the charts: requests per second and the share of them answered 5xx, between two scrapes. */
export interface Rates {
  at: number;
  requestsPerSecond: number;
  errorPercent: number;
  watchers: number;
  memoryMiB: number;
  storeMemoryMiB?: number;
}

export function ratesBetween(before: ServerStats, after: ServerStats): Rates {
  const seconds = Math.max(after.at - before.at, 0.001);
  // A restarted server starts its counters again: no negative rates.
  const requests = Math.max(after.requests - before.requests, 0);
  const errors = Math.max(after.serverErrors - before.serverErrors, 0);
  return {
    at: after.at,
    requestsPerSecond: requests / seconds,
    errorPercent: requests ? (100 * errors) / requests : 0,
    watchers: after.watchers,
    memoryMiB: after.memoryBytes / 2 ** 20,
    storeMemoryMiB: after.storeMemoryBytes === undefined ? undefined : after.storeMemoryBytes / 2 ** 20,
  };
}
