import { existsSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A folder of this machine and how a message shows it: `people` for `/srv/svc/plugins/people`, or nothing. */
export interface ShownFolder {
  dir: string;
  shownAs: string;
}

/** The folder of svc's package.json (its code and node_modules are under it): require stacks name files there. */
function installationFolder(): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir))
    if (existsSync(join(dir, 'package.json'))) return dir;
  return __dirname;
}
const INSTALLATION = installationFolder();

/**
 * The folders a plugin's messages may name, and how each is shown: the plugin's own folder (or where its `.tgz`
 * was unpacked) as its name in the plugins folder, the plugins folder, svc's own folder and the working folder as nothing, so
 * that a path under them reads relative to them (`x.tgz`, `people/index.js`, `pkg/plugin/worker.js`).
 */
export function pluginFolders(pluginsDir: string | undefined, source: string, unpackedDir?: string): ShownFolder[] {
  const own = basename(source);
  const folders: ShownFolder[] = [];
  if (unpackedDir) folders.push({ dir: unpackedDir, shownAs: own });
  if (pluginsDir !== undefined) {
    if (!unpackedDir && !source.startsWith('builtin:')) folders.push({ dir: source, shownAs: own });
    folders.push({ dir: pluginsDir, shownAs: '' });
  }
  folders.push({ dir: INSTALLATION, shownAs: '' }, { dir: process.cwd(), shownAs: '' });
  return folders.flatMap((f) => [f, { ...f, dir: realPath(f.dir) }]);
}

function realPath(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `message` with every absolute path under one of `folders` shown relative to it (the longest folder first):
 * what a Plugin's status says is read by API clients, who have no business knowing how the machine is laid out.
 *
 * @example withoutMachinePaths('/srv/plugins/x.tgz: refused', [{ dir: '/srv/plugins', shownAs: '' }]) // 'x.tgz: refused'
 */
export function withoutMachinePaths(message: string, folders: readonly ShownFolder[]): string {
  const longestFirst = [...folders].filter((f) => f.dir.length > 1).sort((a, b) => b.dir.length - a.dir.length);
  let out = message;
  for (const { dir, shownAs } of longestFirst) {
    // The folder itself, or followed by `/`: not a longer name that starts the same (`/srv/plugins2`).
    const pattern = new RegExp(`${escapeRegExp(dir.replace(/\/+$/, ''))}(?:/|(?![\\w.-]))`, 'g');
    out = out.replace(pattern, (found) => {
      if (!found.endsWith('/')) return shownAs || '.';
      return shownAs ? `${shownAs}/` : '';
    });
  }
  return out;
}
