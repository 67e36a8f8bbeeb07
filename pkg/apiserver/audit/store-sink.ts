import { randomBytes } from 'node:crypto';
import type { ApiObject } from '../../api/object';
import type { Storage } from '../../storage/interface';
import type { Logger } from '../../util/log';
import type { AuditRecord } from './record';
import type { AuditSink } from './recorder';

/** Where audit records are kept in the store, and their API. */
export const AUDIT_GROUP = 'audit.svc.run';
export const AUDIT_VERSION = 'v1alpha1';
/** The stored type: batches of records, each batch one object (docs/operations.md, "Audit"). */
export const AUDIT_BATCH_TYPE = `eventbatches.${AUDIT_GROUP}`;
/** The indexes a list filters on: each batch holds every value its records have. */
export const AUDIT_FIELDS = ['user', 'verb', 'resource', 'decision'] as const;
/** The batches' sort index: the time of a batch's newest record. */
export const TIME_INDEX = 'time';

export const DEFAULT_AUDIT_RETENTION_MS = 7 * 24 * 3600 * 1000;
/** The most records one stored batch holds. */
export const MAX_BATCH_RECORDS = 500;
/** How often expired batches are removed, and how many at a time. */
const SWEEP_INTERVAL_MS = 60_000;
const SWEEP_BATCH = 100;

/** A stored batch: the records one apiserver handed to the store at once, oldest first. */
export type AuditBatch = ApiObject & { records: AuditRecord[] };

/** A record as the events API serves it: the record's fields beside `metadata`. */
export type AuditEvent = ApiObject & AuditRecord;

/** The newest record's time of a batch. */
export const batchTime = (batch: AuditBatch): string => batch.records[batch.records.length - 1]?.time ?? '';

/** Declares the batches' type and its indexes. */
export async function defineAuditType(storage: Storage): Promise<void> {
  await storage.defineType(AUDIT_BATCH_TYPE, [
    { name: TIME_INDEX, order: 'DESC', indexFunc: (o: ApiObject) => batchTime(o as AuditBatch) },
    ...AUDIT_FIELDS.map((field) => ({
      name: field,
      indexFunc: (o: ApiObject) => new Set((o as AuditBatch).records.map((r) => String(r[field]))),
    })),
  ]);
}

/**
 * The store sink: the records of each write (what the recorder gathered since its last one) stored as one object,
 * up to `MAX_BATCH_RECORDS` each, so that a busy server stores a record for a fraction of a write; batches whose
 * newest record is older than the retention are removed by a sweep every minute.
 */
export function auditStoreSink(storage: Storage, retentionMs: number, log: Logger): AuditSink {
  const sweep = setInterval(() => void sweepExpired(storage, retentionMs, log), SWEEP_INTERVAL_MS);
  sweep.unref();
  return {
    name: 'store',
    write: async (records) => {
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < records.length; i += MAX_BATCH_RECORDS)
        writes.push(storage.create(AUDIT_BATCH_TYPE, batchOf(records.slice(i, i + MAX_BATCH_RECORDS))));
      await Promise.all(writes);
    },
    close: async () => clearInterval(sweep),
  };
}

/** A batch named by its newest record's time (sortable) and a random suffix. */
function batchOf(records: AuditRecord[]): AuditBatch {
  const newest = records[records.length - 1].time;
  const name = `${newest.replace(/[^0-9]/g, '')}-${randomBytes(4).toString('hex')}`;
  return { apiVersion: `${AUDIT_GROUP}/${AUDIT_VERSION}`, kind: 'EventBatch', metadata: { name }, records };
}

/** Record `index` of a batch as the events API serves it: named `<batch>.<index>`, with the batch's resourceVersion. */
export function eventOf(batch: AuditBatch, index: number): AuditEvent {
  const record = batch.records[index];
  return {
    apiVersion: `${AUDIT_GROUP}/${AUDIT_VERSION}`,
    kind: 'Event',
    metadata: {
      name: `${batch.metadata.name}.${index}`,
      resourceVersion: batch.metadata.resourceVersion,
      creationTimestamp: record.time,
    },
    ...record,
  };
}

/** Removes the batches whose newest record is older than the retention, oldest first, a page at a time. */
export async function sweepExpired(storage: Storage, retentionMs: number, log: Logger): Promise<number> {
  const cutoff = new Date(Date.now() - retentionMs).toISOString();
  let removed = 0;
  try {
    for (;;) {
      const page = await storage.list(AUDIT_BATCH_TYPE, {
        sort: [{ index: TIME_INDEX, direction: 'asc' }],
        limit: SWEEP_BATCH,
      });
      const expired = page.items.filter((item) => batchTime(item as AuditBatch) < cutoff);
      for (const item of expired) {
        await storage.delete(AUDIT_BATCH_TYPE, item.metadata.name!).catch(() => undefined);
        removed += (item as AuditBatch).records.length;
      }
      if (expired.length < SWEEP_BATCH) return removed;
    }
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'audit retention sweep failed; retrying at the next one');
    return removed;
  }
}
