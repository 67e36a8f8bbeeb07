import { api } from '../api/client';
import { CONSOLE_PLUGINS } from '../api/paths';
import type { RouteDefinition } from '../router/router';
import { pluginRoutes, type ConsolePluginEntry, type PluginRoute } from './contract';

/** Imports a module by URL (the browser's own `import()`; tests give another). */
export type ModuleImporter = (url: string) => Promise<{ routes?: unknown }>;

const browserImport: ModuleImporter = (url) => import(/* @vite-ignore */ url);

/**
 * The console routes of every running plugin with console pages: each
 * plugin's module imported from the apiserver. A plugin whose module fails
 * to load or breaks the contract is left out (and said so in the browser's
 * console); the others still join.
 */
export async function loadPluginRoutes(
  page: (route: PluginRoute) => RouteDefinition['component'],
  importModule: ModuleImporter = browserImport,
): Promise<RouteDefinition[]> {
  const list = await api<{ items: ConsolePluginEntry[] }>('GET', CONSOLE_PLUGINS);
  const loaded = await Promise.all(
    list.items.map(async (plugin) => {
      try {
        return pluginRoutes(plugin, await importModule(plugin.entry), page);
      } catch (err) {
        console.warn(`the console pages of plugin ${plugin.name} are left out:`, err);
        return [];
      }
    }),
  );
  return loaded.flat();
}

/**
 * Whether plugins' routes read again are those already shown (same paths,
 * titles and permissions): then the shown ones are kept, so an open plugin
 * page is not drawn anew (losing what was typed) each time they are read.
 */
export function sameRoutes(shown: readonly RouteDefinition[] | undefined, read: readonly RouteDefinition[]): boolean {
  const key = (routes: readonly RouteDefinition[]) =>
    JSON.stringify(routes.map((r) => [r.path, r.title, r.menu, r.meta.permissions]));
  return shown !== undefined && key(shown) === key(read);
}
