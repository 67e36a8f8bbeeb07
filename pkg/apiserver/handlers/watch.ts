import type { WebSocket } from 'ws';
import type { RequestContext } from '../context';
import type { ResourceStore } from '../../registry/resource-store';
import { badRequest } from '../../api/errors';
import { NAME_INDEX, withDefaultIndexes, type IndexSpec } from '../../storage/indexes';
import { parseListParams } from '../list-params';
import { wantsTable } from '../table';
import { Selection } from '../watch/selection';
import { narrowedList } from '../object-access';
import { runWatch, type WatchRequest } from '../watch/stream';
import { httpSink } from '../watch/http-sink';
import { websocketSink } from '../watch/websocket-sink';
import type { FieldRequirement } from '../../storage/query';
import type { HandlerSettings } from './deps';

/**
 * Builds a watch from the query (docs/api.md): selectors, `resourceVersion`,
 * `sendInitialEvents` (a streaming list), `timeoutSeconds` (capped by the
 * server's watch timeout), `allowWatchBookmarks`. On an object's path, only
 * that object is watched.
 */
export function watchRequest(ctx: RequestContext, store: ResourceStore, settings: HandlerSettings): WatchRequest {
  const params = parseListParams(ctx.url.searchParams);
  const fields = watchedFields(ctx, params.list.fieldSelector);
  const rv = params.resourceVersion;
  if (rv !== undefined && !/^\d+$/.test(rv)) {
    throw badRequest(`invalid resourceVersion "${rv}": a watch resumes from a resourceVersion this server returned`);
  }
  const labels = params.list.labelSelector ?? [];
  const indexes = withDefaultIndexes(store.model.indexes ?? []);
  checkFieldsIndexed(params.list.fieldSelector ?? [], indexes, store.model.plural);
  const listOptions = { labelSelector: labels, fieldSelector: fields };
  return {
    store,
    selection: new Selection(indexes, labels, fields, undefined, ctx.conditions),
    // The initial list holds only what the caller's conditions let them see, as later events do.
    listOptions: ctx.conditions ? narrowedList(listOptions, ctx.conditions, store.model.plural) : listOptions,
    resourceVersion: rv,
    sendInitialEvents: params.sendInitialEvents,
    bookmarks: params.allowWatchBookmarks,
    bookmarkIntervalMs: settings.bookmarkIntervalMs,
    timeoutMs: watchTimeout(params.timeoutSeconds, settings.watchTimeoutMs),
    maxBacklogBytes: settings.watchMaxBacklogBytes,
    table: wantsTable(ctx.req.headers.accept)
      ? { includeObject: ctx.url.searchParams.get('includeObject') }
      : undefined,
    log: ctx.log,
    accessChanges: ctx.conditionChanges,
  };
}

/**
 * A field selector names indexes only (docs/api.md): checked before the stream starts, so that a watch answers
 * 400 as a list does, not 200 and an ERROR event (or, resuming from a revision, a selector that never matches).
 */
function checkFieldsIndexed(fields: FieldRequirement[], indexes: IndexSpec[], plural: string): void {
  const names = indexes.map((spec) => spec.name);
  for (const { field } of fields) {
    if (!names.includes(field)) {
      throw badRequest(`fieldSelector: "${field}" is not an index of ${plural}; its indexes are: ${names.join(', ')}`);
    }
  }
}

/** The query's field selector, narrowed to the object's name on its path and to the names RBAC lets the user watch. */
function watchedFields(ctx: RequestContext, selector: FieldRequirement[] = []): FieldRequirement[] {
  const fields = [...selector];
  if (ctx.info.name) fields.push({ field: NAME_INDEX, op: 'in', values: [ctx.info.name] });
  if (ctx.watchNames) fields.push({ field: NAME_INDEX, op: 'in', values: ctx.watchNames });
  return fields;
}

/** `timeoutSeconds` (0 or absent: the server's), never beyond the server's watch timeout. */
const watchTimeout = (seconds: number | undefined, serverMs: number): number =>
  seconds ? Math.min(seconds * 1000, serverMs) : serverMs;

/**
 * GET …?watch=true: a chunked HTTP stream of events, one JSON object per
 * line. HEAD checks the request (parameters, permission) and answers the
 * headers alone at once: a client takes a HEAD response as complete, so a
 * watch behind it would only hold the connection.
 */
export async function handleWatch(ctx: RequestContext, store: ResourceStore, settings: HandlerSettings): Promise<void> {
  const request = watchRequest(ctx, store, settings);
  const sink = httpSink(ctx.res);
  if (ctx.req.method === 'HEAD') sink.close();
  else await runWatch(request, sink, ctx.signal);
}

/** A WebSocket upgrade on a collection or object path: the same events, one per text message. */
export async function handleWebSocketWatch(
  ctx: RequestContext,
  store: ResourceStore,
  settings: HandlerSettings,
  ws: WebSocket,
): Promise<void> {
  const request = watchRequest(ctx, store, settings);
  const abort = new AbortController();
  ws.on('close', () => abort.abort());
  ctx.signal.addEventListener('abort', () => abort.abort());
  await runWatch(request, websocketSink(ws), abort.signal);
}
