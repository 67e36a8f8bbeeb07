import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { createLogger } from '../../util/log';
import { waitFor } from '../../util/wait-for';
import { auditFileSink } from './file-sink';
import { AuditRecorder, type AuditSink } from './recorder';
import type { AuditRecord } from './record';

const log = createLogger('silent', 'json');

const record = (i: number): AuditRecord => ({
  time: new Date(1_700_000_000_000 + i).toISOString(),
  requestId: `r${i}`,
  user: 'ada',
  authenticatedBy: 'password',
  verb: 'create',
  group: 'example.com',
  resource: 'persons',
  subresource: '',
  name: `p${i}`,
  path: '/apis/example.com/v1/persons',
  code: 201,
  decision: 'allow',
  reason: 'allowed by RoleBinding "ada-editor" to Role "editor"',
});

async function dropped(registry: Registry): Promise<Record<string, number>> {
  const metric = await registry.getSingleMetric('svc_audit_dropped_total')!.get();
  return Object.fromEntries(metric.values.map((v) => [v.labels.sink as string, v.value]));
}

describe('AuditRecorder', () => {
  it('hands records to every sink off the caller, in order', async () => {
    const written: AuditRecord[] = [];
    const sink: AuditSink = { name: 'memory', write: async (r) => void written.push(...r), close: async () => {} };
    const recorder = new AuditRecorder([sink], new Registry(), log);
    for (let i = 0; i < 5; i++) recorder.record(record(i));
    expect(written).toEqual([]);
    await recorder.flush();
    expect(written.map((r) => r.requestId)).toEqual(['r0', 'r1', 'r2', 'r3', 'r4']);
  });

  it('gathers the records of the batch time into one write, and those that come during a write into the next', async () => {
    const batches: string[][] = [];
    let release: () => void = () => {};
    const sink: AuditSink = {
      name: 'memory',
      write: (r) => {
        batches.push(r.map((x) => x.requestId));
        return new Promise<void>((resolve) => (release = resolve));
      },
      close: async () => {},
    };
    const recorder = new AuditRecorder([sink], new Registry(), log, 100, 20);
    for (let i = 0; i < 3; i++) recorder.record(record(i));
    await waitFor(() => batches.length === 1, { what: 'the first batch' });
    for (let i = 3; i < 6; i++) recorder.record(record(i));
    release();
    await waitFor(() => batches.length === 2, { what: 'the second batch' });
    release();
    await recorder.flush();
    expect(batches).toEqual([
      ['r0', 'r1', 'r2'],
      ['r3', 'r4', 'r5'],
    ]);
  });

  it('drops and counts what a full queue cannot hold, and what a failing sink loses, without throwing', async () => {
    const registry = new Registry();
    let release: () => void = () => {};
    const slow: AuditSink = {
      name: 'slow',
      write: () => new Promise<void>((resolve) => (release = resolve)),
      close: async () => {},
    };
    const broken: AuditSink = {
      name: 'broken',
      write: () => Promise.reject(new Error('disk full')),
      close: async () => {},
    };
    const recorder = new AuditRecorder([slow, broken], registry, log, 3, 0);
    for (let i = 0; i < 3; i++) recorder.record(record(i));
    // The first batch is taken by the drain once the caller has moved on; the queue then fills again.
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 3; i < 8; i++) expect(() => recorder.record(record(i))).not.toThrow();
    expect(await dropped(registry)).toEqual({ queue: 2, broken: 3 });
    release();
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await recorder.flush();
    expect(await dropped(registry)).toEqual({ queue: 2, broken: 6 });
  });
});

describe('auditFileSink', () => {
  it('writes JSON lines and rotates at the size, keeping the newest files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-'));
    try {
      const sink = auditFileSink({ path: join(dir, 'audit.log'), maxBytes: 1024, maxFiles: 2 });
      for (let i = 0; i < 40; i++) await sink.write([record(i)]);
      await sink.close();
      const files = readdirSync(dir)
        .filter((f) => f.startsWith('audit.log'))
        .sort();
      expect(files).toEqual(['audit.log', 'audit.log.1', 'audit.log.2']);
      const lines = readFileSync(join(dir, 'audit.log.1'), 'utf8').trim().split('\n');
      expect(JSON.parse(lines[0])).toMatchObject({ user: 'ada', decision: 'allow' });
      // The newest record is the last line of the live file, or of the newest rotated one when it just rotated.
      const newest = ['audit.log.1', 'audit.log'].map((f) => readFileSync(join(dir, f), 'utf8')).join('');
      expect(JSON.parse(newest.trim().split('\n').pop()!).requestId).toBe('r39');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
