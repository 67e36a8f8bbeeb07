import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a test's plugin folder holds (docs/plugins.md). */
export interface PluginFolder {
  /** `spec.version` of its plugin.yaml; default 1.0.0. */
  version?: string;
  /** More lines of the manifest's `spec`, each indented by two spaces, e.g. `'  enabled: false\n'`. */
  spec?: string;
  /** Its index.js; none when absent. */
  code?: string;
  /** Files of its `extensions/` folder, by name, e.g. `{'roles.yaml': '…'}`. */
  extensions?: Record<string, string>;
}

/** A new temporary folder of plugin folders, removed after the test file's tests. */
export function usePluginsDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes the plugin folder `name` under `pluginsDir` (which may not exist yet); answers the folder's path. */
export function writePlugin(pluginsDir: string, name: string, folder: PluginFolder = {}): string {
  const dir = join(pluginsDir, name);
  writePluginFolder(dir, name, folder);
  return dir;
}

/** Writes the plugin `name` into the folder `dir`, wherever it is (e.g. a staging folder moved in later). */
export function writePluginFolder(dir: string, name: string, folder: PluginFolder = {}): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.yaml'), pluginManifest(name, folder));
  if (folder.code !== undefined) writeFileSync(join(dir, 'index.js'), folder.code);
  const extensions = Object.entries(folder.extensions ?? {});
  if (extensions.length) mkdirSync(join(dir, 'extensions'), { recursive: true });
  for (const [file, text] of extensions) writeFileSync(join(dir, 'extensions', file), text);
}

/** A plugin.yaml of this name, version and further spec lines. */
export function pluginManifest(name: string, { version = '1.0.0', spec = '' }: PluginFolder = {}): string {
  return `apiVersion: plugin.svc.run/v1alpha1\nkind: Plugin\nmetadata: {name: ${name}}\nspec:\n  version: ${version}\n${spec}`;
}
