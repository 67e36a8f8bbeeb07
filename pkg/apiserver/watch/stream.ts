import { StatusError, expired as expiredError } from '../../api/errors';
import { isStorageError } from '../../storage/errors';
import type { ListOptions } from '../../storage/query';
import type { ResourceStore } from '../../registry/resource-store';
import { apiVersionOf } from '../../registry/model';
import type { Logger } from '../../util/log';
import type { Selection } from './selection';
import { serializeEvent, serializeWire } from './serialize';

/** Where a watch writes its events: an HTTP response or a WebSocket. */
export interface WatchSink {
  /** Sends one serialised event: the bytes of its JSON line, newline included. */
  send(line: Buffer): void;
  /** Bytes accepted but not yet handed to the network: a watcher whose backlog grows too large is dropped. */
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
  log: Logger;
}

/**
 * Runs a watch until the client leaves (`signal`), the timeout passes, the
 * sink falls too far behind, or storage ends it. A revision too old to
 * replay ends it with an ERROR event carrying a 410 Status.
 */
export async function runWatch(req: WatchRequest, sink: WatchSink, signal: AbortSignal): Promise<void> {
  const { store, selection } = req;
  const present = (o: Parameters<ResourceStore['present']>[0]) => store.present(o);
  let lastRevision = req.resourceVersion ?? '0';
  const timers: NodeJS.Timeout[] = [];
  let watcher: ReturnType<ResourceStore['watch']> | undefined;
  const stop = () => watcher?.stop();
  signal.addEventListener('abort', stop);
  try {
    if (!req.resourceVersion || req.resourceVersion === '0') {
      const initial = await store.list(req.listOptions);
      for (const item of initial.items) sink.send(serializeWire('ADDED', item));
      lastRevision = initial.revision;
    }
    if (signal.aborted) return;
    watcher = store.watch(lastRevision);
    timers.push(setTimeout(stop, req.timeoutMs));
    if (req.bookmarks) {
      const bookmark = () => sink.send(serializeWire('BOOKMARK', {
        apiVersion: apiVersionOf(store.model), kind: store.model.kind, metadata: { resourceVersion: lastRevision },
      }));
      timers.push(setInterval(bookmark, req.bookmarkIntervalMs));
    }
    for await (const event of watcher) {
      lastRevision = event.object.metadata.resourceVersion ?? lastRevision;
      const type = selection.translate(event);
      if (type) sink.send(serializeEvent(event, type, present));
      if (sink.backlog() > req.maxBacklogBytes) {
        req.log.warn({ backlog: sink.backlog() }, 'dropping a watcher that fell behind');
        break;
      }
    }
  } catch (err) {
    sink.send(serializeWire('ERROR', errorStatus(err, req.log)));
  } finally {
    signal.removeEventListener('abort', stop);
    for (const t of timers) clearTimeout(t);
    watcher?.stop();
    sink.close();
  }
}

function errorStatus(err: unknown, log: Logger) {
  if (isStorageError(err, 'Expired')) return expiredError(err.message).toStatus();
  if (err instanceof StatusError) return err.toStatus();
  log.error({ err }, 'watch failed');
  return new StatusError(500, 'InternalError', 'the watch failed; resume from the last resourceVersion').toStatus();
}
