import { badRequest, invalid, type StatusCause } from '../../api/errors';
import type { FieldRequirement } from '../../api/selector-requirements';
import type { Storage } from '../../storage/interface';
import type { RequestContext } from '../context';
import { sendJson } from '../respond';
import type { RouteTable } from '../routes';
import { AUDIT_FIELDS, AUDIT_GROUP, AUDIT_TYPE, AUDIT_VERSION, TIME_INDEX, type AuditEvent } from './store-sink';
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

async function listEvents(ctx: RequestContext, storage: Storage, query: EventQuery): Promise<void> {
  const page = await storage.list(AUDIT_TYPE, {
    fieldSelector: query.fields,
    sort: [{ index: TIME_INDEX, direction: 'desc' }],
    limit: limitOf(ctx.url.searchParams),
    continue: ctx.url.searchParams.get('continue') || undefined,
  });
  const items = page.items.filter((item) => matchesSince(item as AuditEvent, query.since));
  // Newest first: the first record older than `since` ends the answer.
  const ended = items.length < page.items.length;
  const metadata: Record<string, unknown> = { resourceVersion: page.revision };
  if (page.continue && !ended) metadata.continue = page.continue;
  sendJson(ctx.res, 200, { apiVersion: `${AUDIT_GROUP}/${AUDIT_VERSION}`, kind: 'EventList', metadata, items });
}

const matchesSince = (event: AuditEvent, since: string | undefined) => since === undefined || event.time >= since;

function matches(event: AuditEvent, query: EventQuery): boolean {
  return (
    matchesSince(event, query.since) &&
    query.fields.every((f) => f.values.includes(String(event[f.field as keyof AuditEvent])))
  );
}

/** Streams the records created from now on (or after `resourceVersion`) that match, until the client leaves. */
async function watchEvents(ctx: RequestContext, storage: Storage, query: EventQuery): Promise<void> {
  const from = ctx.url.searchParams.get('resourceVersion') || undefined;
  const watcher = storage.watch(AUDIT_TYPE, from === undefined || from === '0' ? {} : { fromRevision: from });
  ctx.signal.addEventListener('abort', () => watcher.stop(), { once: true });
  ctx.res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
  ctx.res.flushHeaders();
  try {
    for await (const event of watcher) {
      if (event.type !== 'ADDED' || !matches(event.object as AuditEvent, query)) continue;
      ctx.res.write(`${JSON.stringify({ type: 'ADDED', object: event.object })}\n`);
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
