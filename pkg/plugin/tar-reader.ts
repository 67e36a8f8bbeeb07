import { gunzipSync } from 'node:zlib';

/** A file or folder of an archive, its path relative to the archive's root (`/`-separated, never `..`). */
export interface TarEntry {
  path: string;
  type: 'file' | 'directory';
  data: Buffer;
}

/** What was read from an archive, and what in it was refused (links, paths leaving the folder, other kinds). */
export interface TarContents {
  entries: TarEntry[];
  refused: string[];
}

const BLOCK = 512;
const ENTRY_TYPES: Record<string, TarEntry['type']> = { '': 'file', '0': 'file', '7': 'file', '5': 'directory' };
const KIND_NAMES: Record<string, string> = {
  '1': 'a hard link',
  '2': 'a symbolic link',
  '3': 'a device',
  '4': 'a device',
  '6': 'a FIFO',
};

/** How much an archive in the plugins folder may unpack to (`--plugin-archive-max-size`, `--plugin-archive-max-entries`). */
export interface ArchiveLimits {
  /** Bytes of the unpacked tar, headers included. */
  maxBytes: number;
  /** Entries (files, folders, links, long-name records) in it. */
  maxEntries: number;
}

/** 256 MiB and 10,000 entries: far more than a plugin needs, far less than stalls the apiserver. */
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = { maxBytes: 256 * 1024 * 1024, maxEntries: 10_000 };

/** An archive that unpacks to more than a limit allows; its message names the limit. */
export class ArchiveLimitError extends Error {}

/**
 * Reads a gzipped tar (ustar, with GNU long names and pax `path` records),
 * keeping regular files and folders. A link, a device, an absolute path or a
 * path with a `..` segment is not kept but named in `refused`. Throws when
 * the bytes are not a gzipped tar, and an ArchiveLimitError as soon as the
 * unpacked bytes or the entries pass a limit (the rest is not unpacked: a
 * small gzip bomb costs no more than the limit).
 */
export function readTgz(gzipped: Buffer, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): TarContents {
  let tar: Buffer;
  try {
    tar = gunzipSync(gzipped, { maxOutputLength: limits.maxBytes });
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') throw err;
    throw new ArchiveLimitError(
      `it unpacks to more than ${sizeText(limits.maxBytes)}, the limit of an unpacked plugin archive ` +
        `(--plugin-archive-max-size)`,
    );
  }
  return readTar(tar, limits);
}

/** Reads an unpacked tar (see readTgz); throws an ArchiveLimitError past `limits.maxEntries` entries. */
export function readTar(tar: Buffer, limits: Pick<ArchiveLimits, 'maxEntries'>): TarContents {
  const contents: TarContents = { entries: [], refused: [] };
  let offset = 0;
  let longName: string | undefined;
  const countEntry = entryCounter(limits.maxEntries);
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) break;
    countEntry();
    checkChecksum(header);
    const size = octal(header.subarray(124, 136));
    const data = tar.subarray(offset + BLOCK, offset + BLOCK + size);
    if (data.length < size) throw new Error('the archive ends inside an entry');
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    const type = String.fromCharCode(header[156]).replace('\0', '');
    if (type === 'L' || type === 'x') {
      longName = type === 'L' ? text(data) : (paxPath(data) ?? longName);
      continue;
    }
    const name = longName ?? headerName(header);
    longName = undefined;
    if (type === 'g') continue;
    record(contents, name, type, data);
  }
  return contents;
}

/** Counts the entries read; throws an ArchiveLimitError on the first one past `max`. */
function entryCounter(max: number): () => void {
  let count = 0;
  return () => {
    if (++count <= max) return;
    throw new ArchiveLimitError(
      `it holds more than ${max} entries, the limit of a plugin archive (--plugin-archive-max-entries)`,
    );
  };
}

function record(contents: TarContents, name: string, type: string, data: Buffer): void {
  const kind = ENTRY_TYPES[type];
  const path = safePath(name);
  if (!kind) contents.refused.push(`${name}: ${KIND_NAMES[type] ?? `an entry of type "${type}"`} is not allowed`);
  else if (path === undefined) contents.refused.push(`${name}: the path leaves the plugin's folder`);
  else if (path !== '') contents.entries.push({ path, type: kind, data: Buffer.from(data) });
}

/** The path without `./` segments or a trailing `/`; undefined when absolute or with a `..` segment. */
function safePath(name: string): string | undefined {
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.includes('\\')) return undefined;
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) return undefined;
  return parts.join('/');
}

function headerName(header: Buffer): string {
  const name = text(header.subarray(0, 100));
  const magic = header.subarray(257, 262).toString('latin1');
  const prefix = magic === 'ustar' ? text(header.subarray(345, 500)) : '';
  return prefix ? `${prefix}/${name}` : name;
}

function paxPath(data: Buffer): string | undefined {
  for (const line of data.toString('utf8').split('\n')) {
    const match = /^\d+ path=(.*)$/.exec(line);
    if (match) return match[1];
  }
  return undefined;
}

function checkChecksum(header: Buffer): void {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : header[i];
  if (sum !== octal(header.subarray(148, 156))) throw new Error('not a tar archive (bad header checksum)');
}

function octal(field: Buffer): number {
  const value = text(field).trim();
  return value === '' ? 0 : parseInt(value, 8);
}

const text = (field: Buffer) => {
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8');
};

/** `256 MiB`, or bytes when not a whole number of MiB. */
function sizeText(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}
