import { open, readdir, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The files of a `file://` store's directory:
 *
 * - `journal-<seq>.log`: framed records, one per write, appended in order;
 * - `snapshot-<seq>.snap`: every object and revision as of the start of
 *   journal `<seq>` (so a reopen loads it, then replays journals `<seq>` on);
 * - `*.tmp`: a snapshot being written (renamed into place when complete);
 * - `LOCK`: the pid of the process that has the store open.
 */

const JOURNAL = /^journal-(\d{8})\.log$/;
const SNAPSHOT = /^snapshot-(\d{8})\.snap$/;

const seqText = (seq: number) => String(seq).padStart(8, '0');

/** The path of journal number `seq`. */
export const journalPath = (dir: string, seq: number): string => join(dir, `journal-${seqText(seq)}.log`);

/** The path of the snapshot taken at the start of journal `seq`. */
export const snapshotPath = (dir: string, seq: number): string => join(dir, `snapshot-${seqText(seq)}.snap`);

/** The path of the lock file. */
export const lockPath = (dir: string): string => join(dir, 'LOCK');

/** What a store directory holds: journal and snapshot numbers (ascending), and leftover temporary files. */
export interface DirectoryListing {
  journals: number[];
  snapshots: number[];
  temporary: string[];
}

/** Lists a store directory's files by kind. */
export async function listDirectory(dir: string): Promise<DirectoryListing> {
  const listing: DirectoryListing = { journals: [], snapshots: [], temporary: [] };
  for (const name of await readdir(dir)) {
    const journal = JOURNAL.exec(name);
    const snapshot = SNAPSHOT.exec(name);
    if (journal) listing.journals.push(Number(journal[1]));
    else if (snapshot) listing.snapshots.push(Number(snapshot[1]));
    else if (name.endsWith('.tmp')) listing.temporary.push(join(dir, name));
  }
  listing.journals.sort((a, b) => a - b);
  listing.snapshots.sort((a, b) => a - b);
  return listing;
}

/** Makes a directory's entries (files created, renamed or removed in it) durable. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes all of `data` at the file's current position (a write may take less than it was given). */
export async function writeFully(handle: FileHandle, data: Buffer): Promise<void> {
  for (let at = 0; at < data.length;) {
    const { bytesWritten } = await handle.write(data, at, data.length - at);
    at += bytesWritten;
  }
}
