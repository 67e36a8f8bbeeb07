import type { ApiObject } from '../../api/object';
import type { WatchEvent, WatchEventType } from '../watch';

/**
 * The payloads of the store's files, as JSON. A journal record is one write:
 * the type, the kind of change, the object as stored (for a removal, its last
 * state), whose `resourceVersion` is the type's revision after the write, and
 * for a change the object's index values before it (what a watch with
 * selectors needs, see `WatchEvent.previousIndexValues`).
 */
export interface JournalRecord {
  t: string;
  e: WatchEventType;
  o: ApiObject;
  p?: Record<string, string[]>;
}

/** The first record of a snapshot: the journal it precedes and every type's revision. */
export interface SnapshotHeader {
  snapshot: 1;
  journal: number;
  revisions: Record<string, number>;
}

/** One object of a snapshot. */
export interface SnapshotObject {
  t: string;
  o: ApiObject;
}

/** The last record of a snapshot: how many objects precede it. */
export interface SnapshotEnd {
  end: number;
}

/** The journal record of one write. */
export function journalRecord(type: string, event: WatchEvent): Buffer {
  const record: JournalRecord = { t: type, e: event.type, o: event.object };
  if (event.previousIndexValues !== undefined) record.p = event.previousIndexValues;
  return Buffer.from(JSON.stringify(record), 'utf8');
}

const EVENT_TYPES: ReadonlySet<string> = new Set(['ADDED', 'MODIFIED', 'DELETED']);

/** Parses a journal record; undefined when it is not one. */
export function parseJournalRecord(payload: Buffer): JournalRecord | undefined {
  const record = parseJson(payload) as Partial<JournalRecord> | undefined;
  if (typeof record?.t !== 'string' || !EVENT_TYPES.has(record.e ?? '') || typeof record.o !== 'object')
    return undefined;
  if (typeof record.o?.metadata?.name !== 'string') return undefined;
  return record as JournalRecord;
}

/** JSON.parse of a payload, undefined when it is not JSON. */
export function parseJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
