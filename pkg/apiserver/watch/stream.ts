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
  /** Absent or "0": first an ADDED for every current object (docs/api.md). */
  resourceVersion?: string;
  /** `sendInitialEvents` (a streaming list when true); absent when not given. */
  sendInitialEvents?: boolean;
  bookmarks: boolean;
  bookmarkIntervalMs: number;
  timeoutMs: number;
  /** A backlog over this many bytes ends the watch; the client resumes from its last resourceVersion. */
  maxBacklogBytes: number;
  /** Set when the client asked for Tables (`Accept: …;as=Table`): each event's object is a one-row Table. */
  table?: { includeObject: string | null };
  /**
   * For a watch whose view depends on the caller's roles (conditional rules): subscribes to changes of that view;
   * one ends the watch with 410 Expired, so the client lists again with what it may see now.
   */
  accessChanges?: (onChange: () => void) => () => void;
  log: Logger;
}

/** The annotation of the BOOKMARK that ends a streaming list's initial events (Kubernetes' WatchList). */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

/**
 * Runs a watch until the client leaves (`signal`), the timeout passes, the
 * sink falls too far behind, or storage ends it. A revision too old to
 * replay ends it with an ERROR event carrying a 410 Status.
 *
 * Storage pushes each batch of events to the watch (`Watcher.listen`), and
 * the batch goes to the sink in one call: no promise per event per watcher.
 */
export async function runWatch(req: WatchRequest, sink: WatchSink, signal: AbortSignal): Promise<void> {
  const timers: NodeJS.Timeout[] = [];
  let watcher: Watcher | undefined;
  const stop = () => watcher?.stop();
  signal.addEventListener('abort', stop);
  let accessChanged = false;
  const unsubscribe = req.accessChanges?.(() => {
    accessChanged = true;
    stop();
  });
  try {
    const present = presenter(req);
    const position = { revision: await sendInitialEvents(req, sink, present) };
    if (signal.aborted) return;
    watcher = req.store.watch(position.revision);
    if (accessChanged) watcher.stop();
    timers.push(...watchTimers(req, sink, stop, position));
    const failure = await follow(req, watcher, sink, present, position);
    if (accessChanged) throw accessChangedError();
    if (failure !== undefined) throw failure;
  } catch (err) {
    sink.send([serializeWire('ERROR', errorStatus(err, req.log))]);
  } finally {
    signal.removeEventListener('abort', stop);
    unsubscribe?.();
    for (const t of timers) clearTimeout(t);
    watcher?.stop();
    sink.close();
  }
}

/** The watch's timeout, and its bookmarks when asked for. */
function watchTimers(req: WatchRequest, sink: WatchSink, stop: () => void, position: { revision: string }) {
  const timers = [setTimeout(stop, req.timeoutMs)];
  if (req.bookmarks) {
    const bookmark = () => sink.send([serializeWire('BOOKMARK', bookmarkObject(req, position.revision))]);
    timers.push(setInterval(bookmark, req.bookmarkIntervalMs));
  }
  return timers;
}

/** How a watcher's objects go on the wire: as themselves, or as one-row Tables. */
interface Presenter {
  present: (o: ApiObject) => unknown;
  format: WireFormat;
}

function presenter(req: WatchRequest): Presenter {
  const { store, table } = req;
  if (!table) return { present: (o) => store.present(o), format: 'object' };
  return {
    present: (o) => toTable(store.model, [store.present(o)], o.metadata.resourceVersion, table.includeObject),
    format: 'table',
  };
}

/**
 * The events before the live ones; answers the revision the watch goes on from.
 * Without `resourceVersion` (or with "0"), or with `sendInitialEvents=true`: an ADDED for every
 * object the selectors match, from one list; a streaming list then sends the BOOKMARK that marks
 * their end, carrying the list's revision. `sendInitialEvents=false` sends none and goes on from the
 * given revision, or from now.
 */
async function sendInitialEvents(req: WatchRequest, sink: WatchSink, { present }: Presenter): Promise<string> {
  const rv = req.resourceVersion;
  const initial = req.sendInitialEvents ?? (!rv || rv === '0');
  if (!initial) {
    const current = await req.store.currentRevision();
    if (!rv || rv === '0') return current;
    checkNotNewer(rv, current);
    return rv;
  }
  const listed = await req.store.list(req.listOptions);
  if (req.sendInitialEvents && rv) checkNotNewer(rv, listed.revision);
  const events = listed.items.map((item) => serializeWire('ADDED', present(item)));
  if (req.sendInitialEvents) {
    const end = bookmarkObject(req, listed.revision);
    end.metadata.annotations = { [INITIAL_EVENTS_END]: 'true' };
    events.push(serializeWire('BOOKMARK', end));
  }
  sink.send(events);
  return listed.revision;
}

/**
 * A watch from `rv`, or a streaming list not older than it (`resourceVersionMatch=NotOlderThan`), needs a
 * revision this type has reached. Storage has no lag to wait for (Kubernetes' watch cache waits up to 3 s),
 * so a newer one, which only a client of another store's history can hold (a `memory://` server started
 * again, a Redis flushed), is refused at once: 504 `Timeout` with Kubernetes' cause `ResourceVersionTooLarge`,
 * on which clients list again rather than wait for a revision that may never come.
 */
function checkNotNewer(rv: string, current: string): void {
  if (Number(rv) <= Number(current)) return;
  throw new StatusError(504, 'Timeout', `Too large resource version: ${rv}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });
}

function bookmarkObject(req: WatchRequest, revision: string) {
  const metadata: { resourceVersion: string; annotations?: Record<string, string> } = { resourceVersion: revision };
  return { apiVersion: apiVersionOf(req.store.model), kind: req.store.model.kind, metadata };
}

/**
 * Forwards storage's batches until the watcher ends; answers why it ended (undefined: a plain stop).
 * A throw in onEvents ends the watcher with it, which onEnd then reports.
 */
function follow(
  req: WatchRequest,
  watcher: Watcher,
  sink: WatchSink,
  { present, format }: Presenter,
  position: { revision: string },
): Promise<Error | undefined> {
  return new Promise((resolve) => {
    watcher.listen({
      onEvents: (events) => {
        position.revision = forward(events, req.selection, present, format, sink) ?? position.revision;
        if (sink.backlog() > req.maxBacklogBytes) {
          req.log.warn({ backlog: sink.backlog() }, 'dropping a watcher that fell behind');
          watcher.stop();
        }
      },
      onEnd: resolve,
    });
  });
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

const accessChangedError = () =>
  expiredError('the objects this watch may show changed with your roles; list again to see what you may see now');

function errorStatus(err: unknown, log: Logger) {
  if (isStorageError(err, 'Expired')) return expiredError(err.message).toStatus();
  if (err instanceof StatusError) return err.toStatus();
  log.error({ err }, 'watch failed');
  return new StatusError(500, 'InternalError', 'the watch failed; resume from the last resourceVersion').toStatus();
}
