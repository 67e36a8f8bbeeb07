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
/** How long the first record of a batch waits for others before the batch goes to the sinks. */
export const DEFAULT_AUDIT_BATCH_MS = 100;

/**
 * Keeps audit records off the request's path: `record` only appends to a
 * bounded queue (a full queue drops the record and counts it); a drain loop
 * hands batches to the sinks, the first one `batchMs` after the first record
 * (0: as soon as the caller has moved on), then what gathered meanwhile. A sink
 * that fails counts its batch as dropped; nothing here ever fails or delays a
 * request.
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
    private readonly batchMs = DEFAULT_AUDIT_BATCH_MS,
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
    this.draining ??= this.afterBatchTime().then(() => this.drain());
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

  private afterBatchTime(): Promise<void> {
    if (this.batchMs <= 0) return new Promise<void>((resolve) => setImmediate(resolve));
    return new Promise<void>((resolve) => setTimeout(resolve, this.batchMs));
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        await Promise.all(this.sinks.map((sink) => this.write(sink, batch)));
        // What gathered meanwhile gets the batch time too, so that a busy server writes few, large batches.
        if (this.queue.length > 0 && this.batchMs > 0) await this.afterBatchTime();
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
