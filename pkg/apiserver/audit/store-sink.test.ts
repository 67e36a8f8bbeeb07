import { MemoryStorage } from '../../storage/memory/memory-storage';
import { createLogger } from '../../util/log';
import type { AuditRecord } from './record';
import {
  AUDIT_BATCH_TYPE,
  auditStoreSink,
  defineAuditType,
  eventOf,
  MAX_BATCH_RECORDS,
  sweepExpired,
  type AuditBatch,
} from './store-sink';

const log = createLogger('silent', 'json');
const DAY = 24 * 3600 * 1000;

const record = (i: number, at: number, user = 'ada'): AuditRecord => ({
  time: new Date(at).toISOString(),
  requestId: `r${i}`,
  user,
  authenticatedBy: 'password',
  verb: i % 2 ? 'delete' : 'create',
  group: 'example.com',
  resource: 'persons',
  subresource: '',
  name: `p${i}`,
  path: '/apis/example.com/v1/persons',
  code: 201,
  decision: 'allow',
  reason: 'allowed',
});

async function batches(storage: MemoryStorage): Promise<AuditBatch[]> {
  return (await storage.list(AUDIT_BATCH_TYPE)).items as AuditBatch[];
}

describe('auditStoreSink', () => {
  it('stores the records of one write as one object, split at the most a batch holds; each served as an Event', async () => {
    const storage = new MemoryStorage();
    await defineAuditType(storage);
    const sink = auditStoreSink(storage, DAY, log);
    try {
      const now = Date.now();
      await sink.write(Array.from({ length: MAX_BATCH_RECORDS + 3 }, (_, i) => record(i, now + i)));
      const stored = await batches(storage);
      expect(stored.map((b) => b.records.length).sort((a, b) => a - b)).toEqual([3, MAX_BATCH_RECORDS]);
      const small = stored.find((b) => b.records.length === 3)!;
      expect(eventOf(small, 2)).toMatchObject({
        kind: 'Event',
        metadata: { name: `${small.metadata.name}.2`, resourceVersion: small.metadata.resourceVersion },
        requestId: `r${MAX_BATCH_RECORDS + 2}`,
      });
      const filtered = await storage.list(AUDIT_BATCH_TYPE, {
        fieldSelector: [{ field: 'user', op: 'in', values: ['bob'] }],
      });
      expect(filtered.items).toEqual([]);
    } finally {
      await sink.close();
    }
  });

  it('removes the batches whose newest record is past the retention, and keeps the others', async () => {
    const storage = new MemoryStorage();
    await defineAuditType(storage);
    const sink = auditStoreSink(storage, DAY, log);
    try {
      const now = Date.now();
      await sink.write([record(1, now - 3 * DAY), record(2, now - 2 * DAY)]);
      await sink.write([record(3, now - 2 * DAY), record(4, now - 1000)]);
      expect(await sweepExpired(storage, DAY, log)).toBe(2);
      expect((await batches(storage)).flatMap((b) => b.records.map((r) => r.requestId))).toEqual(['r3', 'r4']);
    } finally {
      await sink.close();
    }
  });
});
