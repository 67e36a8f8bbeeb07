import type { WatchEvent } from '../../storage/watch';
import type { ApiObject } from '../../api/object';

/** An event as it goes on the wire: `{"type": …, "object": …}`. */
export type WireEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

const cache = new WeakMap<WatchEvent, Map<WireEventType, Buffer>>();

/**
 * Serialises a storage event once however many watchers receive it (storage
 * hands every watcher of a type the same event object), as the bytes of one
 * line: JSON and a newline, so that no watcher encodes it again. `present`
 * strips what no response may carry; it is the same for every watcher of a type.
 */
export function serializeEvent(event: WatchEvent, type: WireEventType, present: (o: ApiObject) => ApiObject): Buffer {
  let byType = cache.get(event);
  if (!byType) {
    byType = new Map();
    cache.set(event, byType);
  }
  let line = byType.get(type);
  if (line === undefined) {
    line = toLine({ type, object: present(event.object) });
    byType.set(type, line);
  }
  return line;
}

/** A one-off event (initial ADDED, BOOKMARK, ERROR), as one line's bytes. */
export const serializeWire = (type: WireEventType, object: unknown): Buffer => toLine({ type, object });

const toLine = (event: { type: WireEventType; object: unknown }): Buffer => Buffer.from(`${JSON.stringify(event)}\n`);
