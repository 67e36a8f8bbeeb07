import { randomBytes } from 'node:crypto';
import type { ApiObject } from '../../api/object';
import type { Storage } from '../../storage/interface';
import type { Logger } from '../../util/log';
import type { AuditRecord } from './record';
import type { AuditSink } from './recorder';

/** Where audit records are kept in the store, and their API. */
export const AUDIT_GROUP = 'audit.svc.run';
export const AUDIT_VERSION = 'v1alpha1';
export const AUDIT_TYPE = `events.${AUDIT_GROUP}`;
/** The indexes a list filters and sorts on. */
export const AUDIT_FIELDS = ['user', 'verb', 'resource', 'decision'] as const;
export const TIME_INDEX = 'time';

export const DEFAULT_AUDIT_RETENTION_MS = 7 * 24 * 3600 * 1000;
/** How often expired records are removed, and how many at a time. */
const SWEEP_INTERVAL_MS = 60_000;
const SWEEP_BATCH = 500;

/** A stored record: the record's fields beside `metadata`. */
export type AuditEvent = ApiObject & AuditRecord;

/** Declares the records' type and its indexes. */
export async function defineAuditType(storage: Storage): Promise<void> {
  await storage.defineType(AUDIT_TYPE, [
    { name: TIME_INDEX, order: 'DESC', indexFunc: (o: ApiObject) => (o as AuditEvent).time },
    ...AUDIT_FIELDS.map((field) => ({ name: field, indexFunc: (o: ApiObject) => (o as AuditEvent)[field] })),
  ]);
}

/**
 * The store sink: each record one object, named by its time (sortable) and a random suffix; records older
 * than the retention are removed by a sweep every minute.
 */
export function auditStoreSink(storage: Storage, retentionMs: number, log: Logger): AuditSink {
  const sweep = setInterval(() => void sweepExpired(storage, retentionMs, log), SWEEP_INTERVAL_MS);
  sweep.unref();
  return {
    name: 'store',
    write: async (records) => {
      await Promise.all(records.map((record) => storage.create(AUDIT_TYPE, eventOf(record))));
    },
    close: async () => clearInterval(sweep),
  };
}

function eventOf(record: AuditRecord): AuditEvent {
  const name = `${record.time.replace(/[^0-9]/g, '')}-${randomBytes(4).toString('hex')}`;
  return { apiVersion: `${AUDIT_GROUP}/${AUDIT_VERSION}`, kind: 'Event', metadata: { name }, ...record };
}

/** Removes the records older than the retention, oldest first, a batch at a time. */
export async function sweepExpired(storage: Storage, retentionMs: number, log: Logger): Promise<number> {
  const cutoff = new Date(Date.now() - retentionMs).toISOString();
  let removed = 0;
  try {
    for (;;) {
      const page = await storage.list(AUDIT_TYPE, {
        sort: [{ index: TIME_INDEX, direction: 'asc' }],
        limit: SWEEP_BATCH,
      });
      const expired = page.items.filter((item) => (item as AuditEvent).time < cutoff);
      for (const item of expired) await storage.delete(AUDIT_TYPE, item.metadata.name!).catch(() => undefined);
      removed += expired.length;
      if (expired.length < SWEEP_BATCH) return removed;
    }
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'audit retention sweep failed; retrying at the next one');
    return removed;
  }
}
