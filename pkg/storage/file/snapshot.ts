import { open, readFile, rename, rm } from 'node:fs/promises';
import type { ApiObject } from '../../api/object';
import type { TypeContents } from '../memory/memory-storage';
import { frame, readRecords } from './framing';
import { snapshotPath, syncDirectory, writeFully } from './layout';
import { parseJson, type SnapshotEnd, type SnapshotHeader, type SnapshotObject } from './records';

/** Objects serialized between two yields to the event loop while a snapshot is written. */
const CHUNK = 2000;

/** One type as a snapshot holds it. */
export interface SnapshotType {
  revision: number;
  objects: Map<string, ApiObject>;
}

/**
 * Writes the snapshot that precedes journal `seq`, atomically: into a
 * temporary file, fsync'd, then renamed into place and the directory synced.
 * Yields to the event loop between chunks so that requests keep being served.
 * Returns false (and leaves no file) when `cancelled` turns true meanwhile.
 */
export async function writeSnapshot(
  dir: string,
  seq: number,
  contents: readonly TypeContents[],
  cancelled: () => boolean,
): Promise<boolean> {
  const path = snapshotPath(dir, seq);
  const temporary = `${path}.tmp`;
  const handle = await open(temporary, 'w');
  let complete = false;
  try {
    const header: SnapshotHeader = {
      snapshot: 1,
      journal: seq,
      revisions: Object.fromEntries(contents.map((c) => [c.type, c.revision])),
    };
    await writeFully(handle, record(header));
    let count = 0;
    for (const { type, objects } of contents) {
      for (let at = 0; at < objects.length; at += CHUNK) {
        if (cancelled()) return false;
        const chunk = objects.slice(at, at + CHUNK).map((o) => record<SnapshotObject>({ t: type, o }));
        count += chunk.length;
        await writeFully(handle, Buffer.concat(chunk));
      }
    }
    await writeFully(handle, record<SnapshotEnd>({ end: count }));
    await handle.sync();
    complete = true;
  } finally {
    await handle.close();
    if (!complete) await rm(temporary, { force: true });
  }
  await rename(temporary, path);
  await syncDirectory(dir);
  return true;
}

/** Reads a snapshot; throws when it is not a whole snapshot (it was renamed into place complete, so that is damage). */
export async function readSnapshot(path: string): Promise<{ journal: number; types: Map<string, SnapshotType> }> {
  const { records, torn } = readRecords(await readFile(path));
  const header = parseJson(records[0] ?? Buffer.alloc(0)) as Partial<SnapshotHeader> | undefined;
  const end = parseJson(records[records.length - 1] ?? Buffer.alloc(0)) as Partial<SnapshotEnd> | undefined;
  if (torn || !isHeader(header) || end?.end !== records.length - 2) {
    throw new Error(`${path} is damaged: not a complete snapshot`);
  }
  const types = new Map<string, SnapshotType>();
  for (const [type, revision] of Object.entries(header.revisions)) types.set(type, { revision, objects: new Map() });
  for (const payload of records.slice(1, -1)) addObject(types, parseJson(payload) as Partial<SnapshotObject>, path);
  return { journal: header.journal, types };
}

function isHeader(header: Partial<SnapshotHeader> | undefined): header is SnapshotHeader {
  return (
    header?.snapshot === 1 &&
    typeof header.journal === 'number' &&
    typeof header.revisions === 'object' &&
    header.revisions !== null
  );
}

/** Adds one object record to its type; throws when it names no type of the header or holds no named object. */
function addObject(types: Map<string, SnapshotType>, entry: Partial<SnapshotObject> | undefined, path: string): void {
  const name = entry?.o?.metadata?.name;
  const type = types.get(entry?.t ?? '');
  if (type === undefined || typeof name !== 'string' || entry?.o === undefined) {
    throw new Error(`${path} is damaged: an object record does not parse`);
  }
  type.objects.set(name, entry.o);
}

const record = <T>(value: T): Buffer => frame(Buffer.from(JSON.stringify(value), 'utf8'));
