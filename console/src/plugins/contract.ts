import type { RouteDefinition } from '../router/router';

/**
 * What a plugin's console module exports (docs/plugins.md, "Console pages"):
 * `export const routes = [{path, title, meta: {permissions}, render}]`.
 * It needs no framework: `render` draws into a plain DOM element.
 */
export interface PluginRoute {
  /** Below the plugin's own part of the console: `/persons` is `/console/plugins/<plugin>/persons`; `:name` segments are parameters. */
  path: string;
  title: string;
  /** Shown in the menu (default true; routes with parameters are usually reached from a list). */
  menu?: boolean;
  meta?: { permissions?: string[] };
  /** Draws the page into `root`; returns what undoes it (optional). Called again when the UI permissions change. */
  render: (root: HTMLElement, ctx: PluginPageContext) => void | (() => void);
}

/** What `render` gets besides its element. */
export interface PluginPageContext {
  /** Calls the API as the logged-in user; resolves with the JSON answer, rejects with the server's Status (`code`, `reason`, `message`, `causes`). */
  api: <T = any>(method: string, path: string, body?: unknown) => Promise<T>;
  /** Whether the user holds at least one of these UI permissions. */
  hasPermission: (permissions: readonly string[]) => boolean;
  uiPermissions: readonly string[];
  user: { name: string };
  /** The route's `:name` parameters, decoded. */
  params: Record<string, string>;
  /** Goes to another console page: `/plugins/<plugin>/…`, or one of the console's own (`/users`). */
  navigate: (path: string) => void;
  /** Aborted when the page goes away (the console's own `api` calls of the page are aborted with it). */
  signal: AbortSignal;
}

/** A plugin with console pages, as `GET …/consoleplugins` lists it. */
export interface ConsolePluginEntry {
  name: string;
  version: string;
  displayName?: string;
  entry: string;
}

/** A path segment: letters, digits, `-`, `_`, `.`, `~` (not only dots), or `:name`. */
const isSegment = (segment: string) => /^:?[A-Za-z0-9._~-]+$/.test(segment) && !/^\.+$/.test(segment);

const isRoutePath = (path: unknown): path is string =>
  typeof path === 'string' &&
  path.startsWith('/') &&
  path
    .slice(1)
    .split('/')
    .every((s) => s === '' || isSegment(s));

const isNameList = (value: unknown) =>
  value === undefined || (Array.isArray(value) && value.every((p) => typeof p === 'string'));

/** Where a plugin's pages live in the console. */
export const pluginBase = (plugin: string) => `/plugins/${plugin}`;

/**
 * The plugin module's routes as console routes (below `/plugins/<name>`),
 * each drawn by `page`. Throws, naming the route, when one breaks the contract.
 */
export function pluginRoutes(
  plugin: ConsolePluginEntry,
  module: { routes?: unknown },
  page: (route: PluginRoute) => RouteDefinition['component'],
): RouteDefinition[] {
  if (!Array.isArray(module.routes))
    throw new Error(`plugin ${plugin.name}: its console module exports no routes array`);
  return (module.routes as unknown[]).map((value, i) => {
    const route = checkedRoute(value, `plugin ${plugin.name}: routes[${i}]`);
    return {
      path: pluginBase(plugin.name) + route.path,
      title: route.title,
      component: page(route),
      menu: route.menu ?? true,
      meta: { permissions: route.meta?.permissions ?? [] },
    };
  });
}

function checkedRoute(value: unknown, where: string): PluginRoute {
  if (typeof value !== 'object' || value === null) throw new Error(`${where}: must be an object`);
  const route = value as Partial<PluginRoute>;
  if (!isRoutePath(route.path))
    throw new Error(`${where}: path must start with "/" and hold plain segments or :parameters`);
  if (typeof route.title !== 'string' || !route.title) throw new Error(`${where}: title is missing`);
  if (typeof route.render !== 'function') throw new Error(`${where}: render must be a function (root, ctx)`);
  if (!isNameList(route.meta?.permissions))
    throw new Error(`${where}: meta.permissions must be a list of UI permission names`);
  return route as PluginRoute;
}
