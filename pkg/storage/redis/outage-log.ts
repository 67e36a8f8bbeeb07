import type { Logger } from '../../util/log';

/**
 * Logs a Redis outage once: `warn` when the first connection of the storage
 * (its command connection, or a watch stream's) loses Redis, `info` when the
 * last of them has it back, with how long it was lost. Connections keep
 * retrying meanwhile; each retry logs nothing.
 */
export class RedisOutageLog {
  private readonly failing = new Set<string>();
  private since = 0;
  private stopped = false;

  constructor(private readonly log: Logger) {}

  /** `source` (e.g. `commands`, `watch persons`) cannot reach Redis. */
  lost(source: string, err: unknown): void {
    if (this.stopped || this.failing.has(source)) return;
    this.failing.add(source);
    if (this.failing.size > 1) return;
    this.since = Date.now();
    this.log.warn({ source, reason: err instanceof Error ? err.message : String(err) }, 'Redis lost; retrying');
  }

  /** `source` reaches Redis again. */
  back(source: string): void {
    if (this.stopped || !this.failing.delete(source) || this.failing.size > 0) return;
    this.log.info({ source, downMs: Date.now() - this.since }, 'Redis back');
  }

  /** The storage is closing: connections it ends itself are no outage. */
  stop(): void {
    this.stopped = true;
  }
}
