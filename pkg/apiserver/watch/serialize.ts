import type { WatchEvent } from '../../storage/watch';
import type { ApiObject } from '../../api/object';

/** An event as it goes on the wire: `{"type": …, "object": …}`. */
export type WireEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

const CRLF = Buffer.from('\r\n');

/**
 * One event's bytes, encoded once and shared by every watcher that receives
 * it, in the forms the sinks write: the JSON line, and that line framed as
 * an HTTP/1.1 chunk.
 */
export class WireEvent {
  private chunkBytes: Buffer | undefined;

  /** @param line the event's JSON and a newline */
  constructor(readonly line: Buffer) {}

  /** `<size in hex>\r\n<line>\r\n`: one chunk of a chunked response, built on first use. */
  get chunk(): Buffer {
    this.chunkBytes ??= Buffer.concat([Buffer.from(`${this.line.length.toString(16)}\r\n`, 'latin1'), this.line, CRLF]);
    return this.chunkBytes;
  }
}

const cache = new WeakMap<WatchEvent, Map<WireEventType, WireEvent>>();

/**
 * Serialises a storage event once however many watchers receive it (storage
 * hands every watcher of a type the same event object). `present` strips
 * what no response may carry; it is the same for every watcher of a type.
 * A watcher may see the event under another type (a MODIFIED that makes an
 * object leave its selection is its DELETED), so each type is cached apart.
 */
export function serializeEvent(event: WatchEvent, type: WireEventType, present: (o: ApiObject) => ApiObject): WireEvent {
  let byType = cache.get(event);
  if (!byType) {
    byType = new Map();
    cache.set(event, byType);
  }
  let wire = byType.get(type);
  if (wire === undefined) {
    wire = serializeWire(type, present(event.object));
    byType.set(type, wire);
  }
  return wire;
}

/** A one-off event (initial ADDED, BOOKMARK, ERROR). */
export const serializeWire = (type: WireEventType, object: unknown): WireEvent =>
  new WireEvent(Buffer.from(`${JSON.stringify({ type, object })}\n`));
