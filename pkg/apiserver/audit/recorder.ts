import { Counter, type Registry } from 'prom-client';
import type { Logger } from '../../util/log';
import type { AuditRecord } from './record';

/** Where records go (a JSON-lines file, the store); a sink that throws loses that record (counted). */
export interface AuditSink {
  name: string;
  write(records: readonly AuditRecord[]): Promise<void>;
  close(): Promise<void>;
}

/** Records the recorder holds before it drops new ones. */
export const DEFAULT_AUDIT_QUEUE = 10_000;

/**
 * Keeps audit records off the request's path: `record` only appends to a
 * bounded queue (a full queue drops the record and counts it); a drain loop
 * hands batches to the sinks. A sink that fails counts its batch as dropped;
 * nothing here ever fails or delays a request.
 */
export class AuditRecorder {
  readonly dropped: Counter<'sink'>;
  private queue: AuditRecord[] = [];
  private draining: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly sinks: readonly AuditSink[],
    registry: Registry,
    private readonly log: Logger,
    private readonly maxQueue = DEFAULT_AUDIT_QUEUE,
  ) {
    this.dropped = new Counter({
      name: 'svc_audit_dropped_total',
      help: 'Audit records that could not be kept: the queue was full, or a sink failed to write them.',
      labelNames: ['sink'] as const,
      registers: [registry],
    });
  }

  /** Queues a record; never throws, never waits. */
  record(record: AuditRecord): void {
    if (this.closed || this.queue.length >= this.maxQueue) {
      this.dropped.inc({ sink: 'queue' });
      return;
    }
    this.queue.push(record);
    this.draining ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.drain());
  }

  /** Resolves once every record queued so far is written (or counted as dropped). */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
  }

  /** Writes what is queued, then closes the sinks; later records are dropped. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    await Promise.all(this.sinks.map((sink) => sink.close().catch(() => undefined)));
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        await Promise.all(this.sinks.map((sink) => this.write(sink, batch)));
      }
    } finally {
      this.draining = undefined;
    }
  }

  private async write(sink: AuditSink, batch: readonly AuditRecord[]): Promise<void> {
    try {
      await sink.write(batch);
    } catch (err) {
      this.dropped.inc({ sink: sink.name }, batch.length);
      this.log.warn({ err: (err as Error).message, sink: sink.name, records: batch.length }, 'audit records lost');
    }
  }
}
