import type { ApiClient } from '../../pkg/client';

/** A route's request as a plugin's handler receives it (docs/plugins.md). */
export type RouteRequest = Request & {
  readonly params: Readonly<Record<string, string>>;
  readonly user: { readonly name: string; readonly groups: readonly string[] };
  /** The API as the route's caller, with exactly their rights (the module's own is `ctx.client`). */
  readonly client: ApiClient;
};

export type RouteHandler = (req: RouteRequest) => Response | Promise<Response>;

/** The part of the plugin `ctx` (docs/plugins.md) the content module uses. */
export interface PluginContext {
  plugin: { name: string; version: string; settings: Record<string, unknown> };
  log: Record<'debug' | 'info' | 'warn' | 'error', (message: string, fields?: Record<string, unknown>) => void>;
  schemes: { register(model: Record<string, unknown>, indexes?: unknown[]): Promise<void> };
  routes: Record<'get' | 'post' | 'put' | 'delete', (path: string, handler: RouteHandler) => void>;
  client: ApiClient;
}
