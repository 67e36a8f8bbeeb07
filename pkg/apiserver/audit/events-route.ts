import { badRequest, invalid, type StatusCause } from '../../api/errors';
import type { FieldRequirement } from '../../api/selector-requirements';
import type { Storage } from '../../storage/interface';
import type { RequestContext } from '../context';
import { sendJson } from '../respond';
import type { RouteTable } from '../routes';
import type { AuditRecord } from './record';
import {
  AUDIT_BATCH_TYPE,
  AUDIT_FIELDS,
  AUDIT_GROUP,
  AUDIT_VERSION,
  batchTime,
  eventOf,
  TIME_INDEX,
  type AuditBatch,
  type AuditEvent,
} from './store-sink';
import { isStorageError } from '../../storage/errors';
import { expired, methodNotAllowed } from '../../api/errors';

/** The most records one page holds, and the default. */
const MAX_LIMIT = 1000;
const DEFAULT_LIMIT = 500;

/** A list's or watch's filters: equality on the indexed fields, and records at or after `since`. */
interface EventQuery {
  fields: FieldRequirement[];
  since: string | undefined;
}

/**
 * `GET /apis/audit.svc.run/v1alpha1/events`: the kept records, newest first, filtered by
 * `user`, `verb`, `resource`, `decision` and `since` (RFC 3339), paged by `limit`/`continue`;
 * `?watch=true` streams the new records that match (one JSON watch event per line).
 * Reading them is authorised as `list`/`watch` on `events` in `audit.svc.run`.
 */
export function registerAuditEventsRoute(routes: RouteTable, storage: Storage): void {
  routes.add({ group: AUDIT_GROUP, version: AUDIT_VERSION, resource: 'events', maxParts: 1 }, async (ctx) => {
    if (ctx.info.verb !== 'list' && ctx.info.verb !== 'watch')
      throw methodNotAllowed(ctx.req.method ?? 'GET', ctx.info.path);
    const query = queryOf(ctx.url.searchParams);
    if (ctx.info.verb === 'watch') await watchEvents(ctx, storage, query);
    else await listEvents(ctx, storage, query);
  });
}

function queryOf(params: URLSearchParams): EventQuery {
  const fields: FieldRequirement[] = [];
  for (const field of AUDIT_FIELDS) {
    const value = params.get(field);
    if (value) fields.push({ field, op: 'in', values: [value] });
  }
  const since = params.get('since') ?? undefined;
  if (since !== undefined && Number.isNaN(Date.parse(since)))
    throw badRequest(`since must be an RFC 3339 time, e.g. 2026-01-02T15:04:05Z, not "${since}"`);
  return { fields, since: since === undefined ? undefined : new Date(since).toISOString() };
}

function limitOf(params: URLSearchParams): number {
  const raw = params.get('limit');
  if (raw === null || raw === '') return DEFAULT_LIMIT;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1) {
    const cause: StatusCause = { field: 'limit', reason: 'FieldValueInvalid', message: 'must be a positive integer' };
    throw invalid({ kind: 'EventList' }, [cause]);
  }
  return Math.min(limit, MAX_LIMIT);
}

/** Batches read per store page while gathering a page of records (fixed: a continue token replays the same page). */
const BATCHES_PER_READ = 20;

/**
 * Where a page of records ends: the store page it was read from, the batch (by name: newer batches may come before
 * it when that page is read again) and the record in it.
 */
interface Cursor {
  /** The store's continue token of the batches' page (`''`: the first). */
  from: string;
  batch: string;
  /** The next record to look at, counted from the batch's newest. */
  record: number;
}

/** Where the first page starts. */
const FIRST: Cursor = { from: '', batch: '', record: 0 };

async function listEvents(ctx: RequestContext, storage: Storage, query: EventQuery): Promise<void> {
  const limit = limitOf(ctx.url.searchParams);
  const token = ctx.url.searchParams.get('continue');
  const read = { revision: undefined as string | undefined };
  const items: AuditEvent[] = [];
  let next: Cursor | undefined;
  for await (const { batch, from, skip } of batchesFrom(storage, query, token ? cursorOf(token) : FIRST, read)) {
    // Newest first: a batch whose newest record is older than `since` ends the answer.
    if (query.since !== undefined && batchTime(batch) < query.since) break;
    const stop = takeRecords(batch, skip, query, items, limit);
    if (stop !== undefined) {
      next = { from, batch: batch.metadata.name!, record: stop };
      break;
    }
  }
  const metadata: Record<string, unknown> = { resourceVersion: read.revision };
  if (next) metadata.continue = Buffer.from(JSON.stringify(next)).toString('base64url');
  sendJson(ctx.res, 200, { apiVersion: `${AUDIT_GROUP}/${AUDIT_VERSION}`, kind: 'EventList', metadata, items });
}

/**
 * The batches that may hold matching records, newest first, from the cursor's batch on (with the records of it
 * to skip), each with the store page it was read from; `read.revision` is the first page's.
 */
async function* batchesFrom(
  storage: Storage,
  query: EventQuery,
  start: Cursor,
  read: { revision: string | undefined },
): AsyncGenerator<{ batch: AuditBatch; from: string; skip: number }> {
  let from = start.from;
  let seek = start.batch === '' ? undefined : start.batch;
  for (;;) {
    const page = await batchPage(storage, query, from);
    read.revision ??= page.revision;
    for (const item of page.items) {
      const batch = item as AuditBatch;
      if (seek !== undefined && batch.metadata.name !== seek) continue;
      yield { batch, from, skip: seek === undefined ? 0 : start.record };
      seek = undefined;
    }
    if (!page.continue) return;
    from = page.continue;
  }
}

const batchPage = (storage: Storage, query: EventQuery, from: string) =>
  storage.list(AUDIT_BATCH_TYPE, {
    fieldSelector: query.fields,
    sort: [{ index: TIME_INDEX, direction: 'desc' }],
    limit: BATCHES_PER_READ,
    continue: from || undefined,
  });

/**
 * Adds the batch's matching records, newest first after the `skip` newest, to `items` up to `limit`; returns where
 * it stopped (counted from the newest) when the page is full with records left to look at.
 */
function takeRecords(
  batch: AuditBatch,
  skip: number,
  query: EventQuery,
  items: AuditEvent[],
  limit: number,
): number | undefined {
  for (let r = skip; r < batch.records.length; r++) {
    const index = batch.records.length - 1 - r;
    if (!matches(batch.records[index], query)) continue;
    if (items.length === limit) return r;
    items.push(eventOf(batch, index));
  }
  return undefined;
}

/** A continue token this route made; 400 for anything else. */
function cursorOf(token: string): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<Cursor>;
    const { from, batch, record } = cursor;
    if (
      typeof from === 'string' &&
      typeof batch === 'string' &&
      batch !== '' &&
      Number.isInteger(record) &&
      record! >= 0
    )
      return cursor as Cursor;
  } catch {
    // reported below
  }
  throw badRequest('continue is not a continue token of this list');
}

const matchesSince = (record: AuditRecord, since: string | undefined) => since === undefined || record.time >= since;

function matches(record: AuditRecord, query: EventQuery): boolean {
  return (
    matchesSince(record, query.since) &&
    query.fields.every((f) => f.values.includes(String(record[f.field as keyof AuditRecord])))
  );
}

/** Streams the records created from now on (or after `resourceVersion`) that match, until the client leaves. */
async function watchEvents(ctx: RequestContext, storage: Storage, query: EventQuery): Promise<void> {
  const from = ctx.url.searchParams.get('resourceVersion') || undefined;
  const watcher = storage.watch(AUDIT_BATCH_TYPE, from === undefined || from === '0' ? {} : { fromRevision: from });
  ctx.signal.addEventListener('abort', () => watcher.stop(), { once: true });
  ctx.res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
  ctx.res.flushHeaders();
  try {
    for await (const event of watcher) {
      if (event.type !== 'ADDED') continue;
      const batch = event.object as AuditBatch;
      const lines = batch.records.flatMap((record, i) =>
        matches(record, query) ? [`${JSON.stringify({ type: 'ADDED', object: eventOf(batch, i) })}\n`] : [],
      );
      if (lines.length) ctx.res.write(lines.join(''));
    }
  } catch (err) {
    if (!isStorageError(err, 'Expired')) throw err;
    ctx.res.write(
      `${JSON.stringify({ type: 'ERROR', object: expired('the requested resourceVersion is too old').toStatus() })}\n`,
    );
  } finally {
    watcher.stop();
    ctx.res.end();
  }
}
