import { resolve } from 'node:path';

/** Where a `file://` URL puts the store, and its knobs. */
export interface FileTarget {
  /** The store directory, absolute. */
  dir: string;
  /** `?snapshotMiB=`: journal MiB between snapshots, when given. */
  snapshotBytes?: number;
}

/**
 * Reads a `file://<dir>` URL: `file://./data` and `file://data` are relative
 * to the working directory, `file:///var/lib/svc` is absolute. (A URL parser
 * takes the first segment of a relative path for a host, so host and path
 * are joined back.)
 *
 * @example fileTarget(new URL('file://./data?snapshotMiB=16')) // { dir: '<cwd>/data', snapshotBytes: 16777216 }
 */
export function fileTarget(url: URL): FileTarget {
  const path = decodeURIComponent(url.host + url.pathname);
  if (path === '' || path === '/') throw new Error('a file:// storage URL needs a directory, e.g. file://./data');
  const target: FileTarget = { dir: resolve(path) };
  const snapshotMiB = url.searchParams.get('snapshotMiB');
  if (snapshotMiB !== null) {
    const mib = Number(snapshotMiB);
    if (!Number.isFinite(mib) || mib <= 0)
      throw new Error(`snapshotMiB must be a positive number, not "${snapshotMiB}"`);
    target.snapshotBytes = Math.round(mib * 1024 * 1024);
  }
  return target;
}
