import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ManifestError } from './manifest';

/** A plugin's console pages (`spec.console` of `plugin.yaml`): an ES module in a folder of files served to browsers. */
export interface PluginConsole {
  /** The module's path in the plugin folder, `/`-separated: `console/index.js`. */
  entry: string;
  /** The top folder of `entry` (`console`): every file below it is served, nothing else of the plugin. */
  folder: string;
}

/** Top folders that hold the plugin's own code or objects: never served to browsers. */
const RESERVED_FOLDERS = new Set(['extensions', 'node_modules']);

/**
 * Reads and checks `spec.console` (`{entry: console/index.js}`): the entry is
 * a `.js` or `.mjs` file in a subfolder of the plugin folder (so that
 * `plugin.yaml` and `index.js` are never served), without `..`, and exists.
 * Absent: undefined.
 */
export function readConsoleEntry(file: string, dir: string, value: unknown): PluginConsole | undefined {
  if (value === undefined) return undefined;
  const entry = typeof value === 'object' && value !== null ? (value as { entry?: unknown }).entry : undefined;
  if (typeof entry !== 'string')
    throw new ManifestError(file, 'spec.console must be a mapping with an entry, e.g. {entry: console/index.js}');
  const parts = entry.split('/');
  if (!isServableEntry(entry, parts)) {
    throw new ManifestError(
      file,
      `spec.console.entry must be a .js or .mjs file in a subfolder of the plugin (e.g. console/index.js), not ${JSON.stringify(entry)}`,
    );
  }
  const path = join(dir, ...parts);
  if (!existsSync(path) || !statSync(path).isFile())
    throw new ManifestError(file, `spec.console.entry: ${entry} is not a file of the plugin`);
  return { entry, folder: parts[0] };
}

/** A `.js`/`.mjs` path of two or more plain segments, outside the folders that are never served. */
function isServableEntry(entry: string, parts: string[]): boolean {
  const plain = (part: string) => part !== '' && part !== '.' && part !== '..' && !part.includes('\\');
  return /\.m?js$/.test(entry) && parts.length >= 2 && parts.every(plain) && !RESERVED_FOLDERS.has(parts[0]);
}
