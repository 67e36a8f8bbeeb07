import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { isDns1123Name } from '../api/validation/dns';
import { ManifestError, readPluginFolder, type PluginManifest } from './manifest';
import { ArchiveLimitError, DEFAULT_ARCHIVE_LIMITS, readTgz, type ArchiveLimits, type TarEntry } from './tar-reader';

/** A plugin in the plugins folder: a folder or a `.tgz` of one, with a hash of its whole content. */
export interface PluginSource {
  path: string;
  archive: boolean;
  hash: string;
}

/** A plugin source, read: its manifest, why it is refused (if it is), and the folder an archive was unpacked to. */
export interface LoadedSource {
  manifest: PluginManifest;
  refused?: string;
  unpackedDir?: string;
}

/** Every folder and `.tgz` file in `pluginsDir` (names starting with `.` left out), sorted, each with its hash. */
export function listPluginSources(pluginsDir: string): PluginSource[] {
  const sources: PluginSource[] = [];
  for (const entry of readdirSync(pluginsDir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(pluginsDir, entry.name);
    if (entry.isDirectory()) sources.push({ path, archive: false, hash: hashFolder(path) });
    else if (entry.isFile() && entry.name.endsWith('.tgz'))
      sources.push({ path, archive: true, hash: hashBytes(readFileSync(path)) });
  }
  return sources.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * Reads a plugin source. A folder is read where it is; an archive is
 * unpacked into a new temporary folder (one top-level folder in it is
 * stripped). An archive with a link or a path leaving the folder is not
 * unpacked: its `plugin.yaml` is read alone, and `refused` says why.
 * Throws a ManifestError when no manifest can be read, or when the archive
 * unpacks to more than `limits` allow (naming the limit).
 */
export function loadPluginSource(source: PluginSource, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): LoadedSource {
  if (!source.archive) return { manifest: readPluginFolder(source.path) };
  let contents;
  try {
    contents = readTgz(readFileSync(source.path), limits);
  } catch (err) {
    if (err instanceof ArchiveLimitError) throw new ManifestError(source.path, `is refused: ${err.message}`);
    throw new ManifestError(source.path, `is not a gzipped tar archive: ${(err as Error).message}`);
  }
  const entries = stripTopFolder(contents.entries);
  const dir = mkdtempSync(join(tmpdir(), 'svc-plugin-'));
  try {
    const refused = contents.refused.length ? `${source.path}: refused: ${contents.refused.join('; ')}` : undefined;
    writeEntries(dir, refused ? entries.filter((e) => e.path === 'plugin.yaml') : entries);
    return { manifest: readPluginFolder(dir), refused, unpackedDir: dir };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    if (err instanceof ManifestError) throw new ManifestError(source.path, err.reason);
    throw err;
  }
}

/** The version a plugin whose manifest cannot be read is shown with. */
export const UNKNOWN_VERSION = 'unknown';

/**
 * The name a plugin source is known by when its `plugin.yaml` cannot be read (an archive over the limits, say):
 * its file or folder name as a DNS label (`People_2.tgz` → `people-2`); undefined when nothing usable is left.
 */
export function nameFromSourcePath(path: string): string | undefined {
  const name = basename(path)
    .replace(/\.tgz$/, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .slice(0, 63)
    .replace(/^-+|-+$/g, '');
  return isDns1123Name(name) ? name : undefined;
}

/**
 * A source whose manifest cannot be read, as a plugin that is refused, so that its Plugin object (named after the
 * file) shows it FAILED with `reason`; undefined when the file name makes no plugin name.
 */
export function unreadableSource(path: string, reason: string): LoadedSource | undefined {
  const name = nameFromSourcePath(path);
  if (name === undefined) return undefined;
  const spec = { version: UNKNOWN_VERSION, enabled: true };
  return {
    manifest: {
      dir: '',
      name,
      version: UNKNOWN_VERSION,
      requires: '*',
      enabled: true,
      settings: {},
      spec,
      extensions: [],
    },
    refused: reason,
  };
}

/** When the archive holds one folder with everything in it (and no plugin.yaml at the top), its content. */
function stripTopFolder(entries: TarEntry[]): TarEntry[] {
  if (entries.some((e) => e.path === 'plugin.yaml')) return entries;
  const tops = new Set(entries.map((e) => e.path.split('/')[0]));
  if (tops.size !== 1) return entries;
  const top = [...tops][0];
  return entries.filter((e) => e.path !== top).map((e) => ({ ...e, path: e.path.slice(top.length + 1) }));
}

function writeEntries(dir: string, entries: TarEntry[]): void {
  for (const entry of entries) {
    const target = join(dir, entry.path);
    if (entry.type === 'directory') {
      mkdirSync(target, { recursive: true });
    } else {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, entry.data);
    }
  }
}

/** A hash of every file's relative path and content under `dir` (symbolic links followed as `stat` does). */
function hashFolder(dir: string): string {
  const hash = createHash('sha256');
  const walk = (folder: string, prefix: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      const stat = statSync(path, { throwIfNoEntry: false });
      if (stat?.isDirectory()) walk(path, `${prefix}${name}/`);
      else if (stat?.isFile()) hash.update(`${prefix}${name}\0${stat.size}\0`).update(readFileSync(path));
    }
  };
  walk(dir, '');
  return hash.digest('hex');
}

const hashBytes = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
