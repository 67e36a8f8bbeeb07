import { readFile, rm, truncate } from 'node:fs/promises';
import type { ApiObject } from '../../api/object';
import { deepFreeze } from '../../util/deep-freeze';
import type { RestoredType } from '../memory/type-store';
import type { WatchEvent } from '../watch';
import { readRecords } from './framing';
import { journalPath, listDirectory, snapshotPath, syncDirectory } from './layout';
import { parseJournalRecord } from './records';
import { readSnapshot } from './snapshot';

/** What a store directory held, loaded. */
export interface RecoveredStore {
  /** Every type's objects, revision and newest events (at most the retention). */
  types: Map<string, RestoredType>;
  /** The journal to append to (the last one, its torn tail cut off). */
  journal: number;
  /** Journal bytes written since the latest snapshot: what the next reopen replays. */
  journalBytes: number;
  /** Records replayed from the journals. */
  replayed: number;
}

interface LoadingType {
  revision: number;
  objects: Map<string, ApiObject>;
  history: WatchEvent[];
}

/**
 * Loads a store directory: the latest snapshot, then every journal after it,
 * record by record. A torn last record of the last journal (a crash while it
 * was written, so it was never acknowledged) is cut off the file; damage
 * anywhere else throws, since acknowledged writes would be lost. Leftover
 * temporary files are removed.
 */
export async function recoverStore(dir: string, retention: number): Promise<RecoveredStore> {
  const listing = await listDirectory(dir);
  for (const path of listing.temporary) await rm(path, { force: true });
  const loading = new Map<string, LoadingType>();
  const latest = listing.snapshots[listing.snapshots.length - 1];
  if (latest !== undefined) {
    const snapshot = await readSnapshot(snapshotPath(dir, latest));
    for (const [type, { revision, objects }] of snapshot.types) loading.set(type, { revision, objects, history: [] });
  }
  const journals = journalsAfter(dir, listing.journals, latest);
  let journalBytes = 0;
  let replayed = 0;
  for (const [i, seq] of journals.entries()) {
    const replay = await replayJournal(dir, journalPath(dir, seq), i === journals.length - 1, (record, path) =>
      apply(loading, record.t, eventOf(record), path, retention),
    );
    journalBytes += replay.bytes;
    replayed += replay.records;
  }
  const types = new Map<string, RestoredType>();
  for (const [type, { revision, objects, history }] of loading) {
    for (const object of objects.values()) deepFreeze(object);
    types.set(type, { revision, objects, history: newest(history, retention) });
  }
  const journal = journals[journals.length - 1] ?? latest ?? 1;
  return { types, journal, journalBytes, replayed };
}

/** The journals to replay after snapshot `latest`, which must follow each other from it. */
function journalsAfter(dir: string, all: readonly number[], latest: number | undefined): number[] {
  const journals = all.filter((seq) => latest === undefined || seq >= latest);
  journals.forEach((seq, i) => {
    if (i > 0 && seq !== journals[i - 1] + 1) throw new Error(`${journalPath(dir, journals[i - 1] + 1)} is missing`);
  });
  if (latest !== undefined && journals.length > 0 && journals[0] !== latest) {
    throw new Error(`${journalPath(dir, latest)} is missing`);
  }
  return journals;
}

type JournalRecord = NonNullable<ReturnType<typeof parseJournalRecord>>;

/**
 * Replays one journal's records through `apply`; cuts a torn end off the last
 * journal, and throws on a torn end anywhere else or a record that does not parse.
 */
async function replayJournal(
  dir: string,
  path: string,
  last: boolean,
  apply: (record: JournalRecord, path: string) => void,
): Promise<{ bytes: number; records: number }> {
  const { records, validLength, torn } = readRecords(await readFile(path));
  if (torn && !last) throw new Error(`${path} is damaged at byte ${validLength}`);
  for (const payload of records) {
    const record = parseJournalRecord(payload);
    if (record === undefined) throw new Error(`${path} holds a record that does not parse`);
    apply(record, path);
  }
  if (torn) {
    await truncate(path, validLength);
    await syncDirectory(dir);
  }
  return { bytes: validLength, records: records.length };
}

function eventOf(record: { e: WatchEvent['type']; o: ApiObject; p?: Record<string, string[]> }): WatchEvent {
  const event: WatchEvent =
    record.p === undefined
      ? { type: record.e, object: record.o }
      : { type: record.e, object: record.o, previousIndexValues: record.p };
  deepFreeze(event);
  return event;
}

/** Applies one journalled write; its revision must follow the type's. */
function apply(
  loading: Map<string, LoadingType>,
  type: string,
  event: WatchEvent,
  path: string,
  retention: number,
): void {
  let state = loading.get(type);
  if (state === undefined) {
    state = { revision: 0, objects: new Map(), history: [] };
    loading.set(type, state);
  }
  const revision = state.revision + 1;
  if (event.object.metadata.resourceVersion !== String(revision)) {
    throw new Error(
      `${path}: ${type} write at revision ${event.object.metadata.resourceVersion}, expected ${revision}`,
    );
  }
  state.revision = revision;
  const name = event.object.metadata.name as string;
  if (event.type === 'DELETED') state.objects.delete(name);
  else state.objects.set(name, event.object);
  state.history.push(event);
  // Trimmed now and then, not per record.
  if (state.history.length > 2 * retention + 1024) state.history = newest(state.history, retention);
}

/** The last `count` items (none for 0, unlike `slice(-0)`). */
const newest = <T>(items: T[], count: number): T[] => (count === 0 ? [] : items.slice(-count));
