import { realpath, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { methodNotAllowed } from '../api/errors';
import type { RequestContext } from './context';
import { sendJson } from './respond';
import type { RouteTable } from './routes';

/** Where plugins' console files are served: `/console/plugin-files/<plugin>/<path in the plugin folder>`. */
export const PLUGIN_FILES_PATH = '/console/plugin-files';

/** A running plugin's console pages, as the plugin host reports them. */
export interface ConsolePlugin {
  name: string;
  version: string;
  displayName?: string;
  /** The plugin folder (absolute). */
  dir: string;
  /** The ES module in it, `/`-separated: `console/index.js`. */
  entry: string;
  /** The only folder of the plugin whose files are served: the entry's top folder (`console`). */
  folder: string;
}

/** What `GET /apis/api.console.svc.run/v1alpha1/consoleplugins` lists for each plugin. */
export interface ConsolePluginEntry {
  name: string;
  version: string;
  displayName?: string;
  /** The module's URL: the console imports it and adds its routes. */
  entry: string;
}

/**
 * The console pages of the plugins that run now: the plugin host adds a
 * plugin's when it is STARTED and takes them away when it stops; the
 * apiserver lists them and serves their files.
 */
export class ConsolePlugins {
  private readonly plugins = new Map<string, ConsolePlugin>();

  set(plugin: ConsolePlugin): void {
    this.plugins.set(plugin.name, plugin);
  }

  delete(name: string): void {
    this.plugins.delete(name);
  }

  get(name: string): ConsolePlugin | undefined {
    return this.plugins.get(name);
  }

  list(): ConsolePluginEntry[] {
    return [...this.plugins.values()]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((p) => ({
        name: p.name,
        version: p.version,
        ...(p.displayName ? { displayName: p.displayName } : {}),
        entry: `${PLUGIN_FILES_PATH}/${p.name}/${p.entry}`,
      }));
  }

  /**
   * The file `relative` (`<plugin>/<path>`) names, when it is a file below
   * the plugin's console folder, also after following links; else undefined.
   */
  async file(relative: string): Promise<string | undefined> {
    const [name, ...parts] = relative.split('/');
    const plugin = this.plugins.get(name);
    if (!plugin || parts[0] !== plugin.folder || parts.length < 2) return undefined;
    const root = await realpath(join(plugin.dir, plugin.folder)).catch(() => undefined);
    const file = await realpath(join(plugin.dir, ...parts)).catch(() => undefined);
    if (!root || !file?.startsWith(root + sep)) return undefined;
    return (await stat(file)).isFile() ? file : undefined;
  }
}

/**
 * `GET /apis/api.console.svc.run/v1alpha1/consoleplugins`: the plugins with
 * console pages, for every logged-in user (a console needs it whatever the
 * user may do with the plugins themselves).
 */
export function registerConsolePluginRoute(routes: RouteTable, consoles: ConsolePlugins): void {
  routes.add(
    { group: 'api.console.svc.run', version: 'v1alpha1', resource: 'consoleplugins', selfService: true },
    (ctx: RequestContext) => {
      if (ctx.info.verb !== 'list') throw methodNotAllowed(ctx.req.method ?? 'GET', ctx.info.path);
      sendJson(ctx.res, 200, {
        apiVersion: 'api.console.svc.run/v1alpha1',
        kind: 'ConsolePluginList',
        items: consoles.list(),
      });
      return Promise.resolve();
    },
  );
}
