import type { WatchEvent } from '../../storage/watch';
import type { ApiObject } from '../../api/object';

/** An event as it goes on the wire: `{"type": …, "object": …}`. */
export type WireEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/**
 * One event's bytes, encoded once and shared by every watcher that receives
 * it, in the forms the sinks write: the event framed as one HTTP/1.1 chunk,
 * and its JSON line, a view into the same bytes.
 */
export class WireEvent {
  /** `<size in hex>\r\n<JSON>\n\r\n`: one chunk of a chunked response. */
  readonly chunk: Buffer;
  /** The event's JSON and a newline. */
  readonly line: Buffer;

  constructor(json: string) {
    const size = Buffer.byteLength(json) + 1;
    const head = `${size.toString(16)}\r\n`;
    this.chunk = Buffer.from(`${head}${json}\n\r\n`);
    this.line = this.chunk.subarray(head.length, head.length + size);
  }
}

/** How a watcher asked for its objects: as themselves, or as Kubernetes `Table`s (`kubectl get -w`). */
export type WireFormat = 'object' | 'table';

const cache = new WeakMap<WatchEvent, Map<string, WireEvent>>();

/**
 * Serialises a storage event once however many watchers receive it (storage
 * hands every watcher of a type the same event object). `present` strips
 * what no response may carry (and, for the `table` format, makes the Table);
 * it is the same for every watcher of a type and format.
 * A watcher may see the event under another type (a MODIFIED that makes an
 * object leave its selection is its DELETED), so each type is cached apart.
 */
export function serializeEvent(
  event: WatchEvent,
  type: WireEventType,
  present: (o: ApiObject) => unknown,
  format: WireFormat = 'object',
): WireEvent {
  let byType = cache.get(event);
  if (!byType) {
    byType = new Map();
    cache.set(event, byType);
  }
  const key = format === 'object' ? type : `${type}/${format}`;
  let wire = byType.get(key);
  if (wire === undefined) {
    wire = serializeWire(type, present(event.object));
    byType.set(key, wire);
  }
  return wire;
}

/** A one-off event (initial ADDED, BOOKMARK, ERROR). */
export const serializeWire = (type: WireEventType, object: unknown): WireEvent =>
  new WireEvent(JSON.stringify({ type, object }));
