import { StatusError, expired as expiredError } from '../../api/errors';
import { isStorageError } from '../../storage/errors';
import type { ListOptions } from '../../storage/query';
import type { ResourceStore } from '../../registry/resource-store';
import { apiVersionOf } from '../../registry/model';
import type { Logger } from '../../util/log';
import type { Selection } from './selection';
import { serializeEvent, serializeWire, type WireEvent, type WireFormat } from './serialize';
import { toTable } from '../table';
import type { Watcher, WatchEvent } from '../../storage/watch';
import type { ApiObject } from '../../api/object';

/** Where a watch writes its events: an HTTP response or a WebSocket. */
export interface WatchSink {
  /** Sends serialised events in order, as few writes as the transport allows. */
  send(events: readonly WireEvent[]): void;
  /** Bytes accepted but not yet handed to the network: a watcher whose backlog grows too large is dropped quietly. */
  backlog(): number;
  /** Ends the stream. */
  close(): void;
}

/** One watch request, already parsed and authorised. */
export interface WatchRequest {
  store: ResourceStore;
  selection: Selection;
  /** The query's selectors again, for the initial list. */
  listOptions: ListOptions;
  /** Absent or "0": first an ADDED for every current object (API.md §6). */
  resourceVersion?: string;
  bookmarks: boolean;
  bookmarkIntervalMs: number;
  timeoutMs: number;
  /** A backlog over this many bytes ends the watch; the client resumes from its last resourceVersion. */
  maxBacklogBytes: number;
  /** Set when the client asked for Tables (`Accept: …;as=Table`): each event's object is a one-row Table. */
  table?: { includeObject: string | null };
  log: Logger;
}

/**
 * Runs a watch until the client leaves (`signal`), the timeout passes, the
 * sink falls too far behind, or storage ends it. A revision too old to
 * replay ends it with an ERROR event carrying a 410 Status.
 *
 * Storage pushes each batch of events to the watch (`Watcher.listen`), and
 * the batch goes to the sink in one call: no promise per event per watcher.
 */
export async function runWatch(req: WatchRequest, sink: WatchSink, signal: AbortSignal): Promise<void> {
  const { store } = req;
  let lastRevision = req.resourceVersion ?? '0';
  const timers: NodeJS.Timeout[] = [];
  let watcher: Watcher | undefined;
  const stop = () => watcher?.stop();
  signal.addEventListener('abort', stop);
  try {
    const table = req.table;
    const present = table
      ? (o: ApiObject) => toTable(store.model, [store.present(o)], o.metadata.resourceVersion, table.includeObject)
      : (o: ApiObject) => store.present(o);
    const format = table ? 'table' : 'object';
    if (!req.resourceVersion || req.resourceVersion === '0') {
      const initial = await store.list(req.listOptions);
      sink.send(initial.items.map((item) => serializeWire('ADDED', table ? present(item) : item)));
      lastRevision = initial.revision;
    }
    if (signal.aborted) return;
    const running = store.watch(lastRevision);
    watcher = running;
    timers.push(setTimeout(stop, req.timeoutMs));
    if (req.bookmarks) {
      const bookmark = () =>
        sink.send([
          serializeWire('BOOKMARK', {
            apiVersion: apiVersionOf(store.model),
            kind: store.model.kind,
            metadata: { resourceVersion: lastRevision },
          }),
        ]);
      timers.push(setInterval(bookmark, req.bookmarkIntervalMs));
    }
    // A throw in onEvents ends the watcher with it, which onEnd then reports.
    const failure = await new Promise<Error | undefined>((resolve) => {
      running.listen({
        onEvents: (events) => {
          lastRevision = forward(events, req.selection, present, format, sink) ?? lastRevision;
          if (sink.backlog() > req.maxBacklogBytes) {
            req.log.warn({ backlog: sink.backlog() }, 'dropping a watcher that fell behind');
            running.stop();
          }
        },
        onEnd: resolve,
      });
    });
    if (failure !== undefined) throw failure;
  } catch (err) {
    sink.send([serializeWire('ERROR', errorStatus(err, req.log))]);
  } finally {
    signal.removeEventListener('abort', stop);
    for (const t of timers) clearTimeout(t);
    watcher?.stop();
    sink.close();
  }
}

/** Sends what `selection` makes of a batch of storage events; returns the batch's last revision. */
function forward(
  events: readonly WatchEvent[],
  selection: Selection,
  present: (o: ApiObject) => unknown,
  format: WireFormat,
  sink: WatchSink,
): string | undefined {
  const out: WireEvent[] = [];
  for (const event of events) {
    const type = selection.translate(event);
    if (type) out.push(serializeEvent(event, type, present, format));
  }
  if (out.length > 0) sink.send(out);
  return events.at(-1)?.object.metadata.resourceVersion;
}

function errorStatus(err: unknown, log: Logger) {
  if (isStorageError(err, 'Expired')) return expiredError(err.message).toStatus();
  if (err instanceof StatusError) return err.toStatus();
  log.error({ err }, 'watch failed');
  return new StatusError(500, 'InternalError', 'the watch failed; resume from the last resourceVersion').toStatus();
}
