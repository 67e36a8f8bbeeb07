import type { WatchEvent } from '../../storage/watch';
import type { ApiObject } from '../../api/object';

/** An event as it goes on the wire: `{"type": …, "object": …}`. */
export type WireEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

const cache = new WeakMap<WatchEvent, Map<WireEventType, string>>();

/**
 * Serialises a storage event once however many watchers receive it (storage
 * hands every watcher of a type the same event object). `present` strips
 * what no response may carry; it is the same for every watcher of a type.
 */
export function serializeEvent(event: WatchEvent, type: WireEventType, present: (o: ApiObject) => ApiObject): string {
  let byType = cache.get(event);
  if (!byType) {
    byType = new Map();
    cache.set(event, byType);
  }
  let line = byType.get(type);
  if (line === undefined) {
    line = JSON.stringify({ type, object: present(event.object) });
    byType.set(type, line);
  }
  return line;
}

/** A one-off event (initial ADDED, BOOKMARK, ERROR). */
export const serializeWire = (type: WireEventType, object: unknown): string => JSON.stringify({ type, object });
