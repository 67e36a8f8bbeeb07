import { deepFreeze } from '../../util/deep-freeze';
import type { WatchEvent, WatchEventType } from '../watch';
import { parseIndexValues, parseObject } from './object-codec';

/** One entry of a type's change stream as ioredis returns it: id and field/value pairs. */
export type StreamEntry = [id: string, fields: string[]];

/** The revision of a stream entry id `<revision>-0`. */
export const revisionOfId = (id: string): number => Number(id.slice(0, id.indexOf('-')));

const EVENT_TYPES: ReadonlySet<string> = new Set<WatchEventType>(['ADDED', 'MODIFIED', 'DELETED']);

/**
 * The frozen watch event of a stream entry (fields `t` type, `o` object JSON,
 * `p` the index values before a MODIFIED). The object's resourceVersion is the
 * entry's revision: for DELETED, the revision of the removal.
 */
export function decodeEvent([id, fields]: StreamEntry): WatchEvent {
  const field = (name: string): string | undefined => {
    for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
    return undefined;
  };
  const type = field('t');
  const json = field('o');
  if (type === undefined || !EVENT_TYPES.has(type) || json === undefined) {
    throw new Error(`malformed change stream entry ${id}`);
  }
  const event: WatchEvent = { type: type as WatchEventType, object: parseObject(json, String(revisionOfId(id))) };
  const previous = field('p');
  if (previous !== undefined) event.previousIndexValues = parseIndexValues(previous, event.object.metadata.name ?? '');
  deepFreeze(event);
  return event;
}
