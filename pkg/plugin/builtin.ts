import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readPluginFolder, type PluginManifest } from './manifest';

/** The platform's own modules, each a plugin folder under `modules/` (e.g. `modules/content`, the posts). */
const MODULES = 'modules';

/**
 * The built-in plugins (docs/content.md): every folder of `modules/` with a
 * `plugin.yaml`, found upwards from this file (it runs from `pkg/…` under
 * jest and `dist/pkg/…` when built). Their code is the compiled
 * `dist/modules/<name>/index.js` when the apiserver runs built, the
 * `index.ts` beside their `plugin.yaml` when it runs from sources. They are
 * marked `builtin`: trusted with the platform's groups.
 */
export function builtinPluginManifests(): PluginManifest[] {
  const root = modulesDir();
  if (!root) return [];
  return listPluginFolders(root)
    .filter((dir) => existsSync(join(dir, 'plugin.yaml')))
    .map((dir) => {
      const manifest = readPluginFolder(dir);
      return { ...manifest, builtin: true, main: moduleCode(dir, manifest.name) };
    });
}

function modulesDir(): string | undefined {
  for (let dir = __dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    const candidate = join(dir, MODULES);
    if (existsSync(candidate) && listPluginFolders(candidate).some((d) => existsSync(join(d, 'plugin.yaml'))))
      return candidate;
  }
  return undefined;
}

function moduleCode(dir: string, name: string): string | undefined {
  const compiled = join(__dirname, '..', '..', MODULES, name, 'index.js');
  if (__filename.endsWith('.js') && existsSync(compiled)) return compiled;
  const source = join(dir, 'index.ts');
  return existsSync(source) ? source : undefined;
}

/** The folders in `dir` (names starting with `.` left out), sorted. */
function listPluginFolders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => join(dir, entry.name))
    .sort();
}
