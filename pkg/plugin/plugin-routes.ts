import { internalError, StatusError } from '../api/errors';
import { assertBodyType } from '../apiserver/body';
import type { RequestContext } from '../apiserver/context';
import type { RequestInfo } from '../apiserver/request-info';
import type { RouteTable } from '../apiserver/routes';
import { pluginUserName } from '../auth/plugin-identities';
import { isMediaType, pickByAccept } from './accept';
import type { LoadedPlugin, PluginRoute } from './loaded-plugin';
import { forwardedRequest, requestBody, routeFailure, writeAnswer } from './route-answer';
import { bodyTypesOf } from './route-body-types';
import { matchRoute, parseRoutePath, type RoutePattern } from './route-pattern';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/** A route whose pattern a request's path matched, with the path parameters. */
interface RouteMatch {
  route: PluginRoute;
  params: Record<string, string>;
}

/** Throws unless a route's method is one served and its `accept` and `contentTypes` are media types. */
function checkRouteDeclaration(method: string, path: string, accept: string | undefined, contentTypes: string[]) {
  if (!METHODS.has(method))
    throw new Error(`route ${method} ${path}: the method must be one of ${[...METHODS].join(', ')}`);
  if (accept !== undefined && !isMediaType(accept))
    throw new Error(`route ${method} ${path}: accept "${accept}" is not a media type such as text/csv`);
  const notMediaType = contentTypes.find((type) => !isMediaType(type));
  if (notMediaType !== undefined)
    throw new Error(`route ${method} ${path}: content type "${notMediaType}" is not a media type such as text/csv`);
}

/**
 * Plugins' routes (`ctx.routes`): each `group/version/resource` a plugin's
 * routes live under is one RouteTable entry, owned by that plugin; a request
 * is matched against the plugin's route patterns once, chosen by its
 * `Accept`, and forwarded to the plugin's worker.
 */
export class PluginRoutes {
  /** `group/version/resource` → the plugin whose routes are mounted there. */
  private readonly routeOwners = new Map<string, string>();
  /** The routes a request's path matched when the route table asked (`accepts`), by its request info. */
  private readonly matched = new WeakMap<RequestInfo, RouteMatch[]>();

  constructor(
    private readonly routes: RouteTable,
    /** The plugin serving the model `group/plural`: a route may not be mounted over another plugin's model. */
    private readonly modelOwner: (key: string) => string | undefined,
    private readonly options: { maxBodyBytes: number; routeTimeoutMs: number },
  ) {}

  /** Serves a route the plugin declares; throws an Error saying what is wrong. */
  register(
    plugin: LoadedPlugin,
    declared: { routeId: number; method: string; path: string; accept?: string; contentTypes?: string[] },
  ): void {
    const { routeId, method, path, accept, contentTypes = [] } = declared;
    const name = plugin.manifest.name;
    checkRouteDeclaration(method, path, accept, contentTypes);
    const pattern = parseRoutePath(path, plugin.manifest.builtin);
    const resourceKey = `${pattern.group}/${pattern.version}/${pattern.resource}`;
    const owner = this.routeOwners.get(resourceKey) ?? this.modelOwner(`${pattern.group}/${pattern.resource}`);
    if (owner && owner !== name)
      throw new Error(`route ${method} ${path}: /apis/${resourceKey} is served by plugin "${owner}"`);
    const shape = (p: RoutePattern) =>
      [p.group, p.version, ...p.segments.map((s) => (s.startsWith('{') ? '{}' : s))].join('/');
    const same = (r: PluginRoute) => r.method === method && shape(r.pattern) === shape(pattern) && r.accept === accept;
    if (plugin.routes.some(same))
      throw new Error(`route ${method} ${path}${accept ? ` (${accept})` : ''}: declared twice`);
    plugin.routes.push({ routeId, method, pattern, accept, contentTypes: contentTypes.map((t) => t.toLowerCase()) });
    if (!plugin.routeRemovers.has(resourceKey)) this.mount(plugin, pattern, resourceKey);
  }

  private mount(plugin: LoadedPlugin, pattern: RoutePattern, resourceKey: string): void {
    const remove = this.routes.add(
      {
        group: pattern.group,
        version: pattern.version,
        resource: pattern.resource,
        subresource: '*',
        accepts: (info, m) => {
          const found = this.findRoutes(plugin, m, info);
          if (found.length === 0) return false;
          // Kept for `serve`, which answers this same request: its route is matched once.
          this.matched.set(info, found);
          return true;
        },
      },
      (ctx) => plugin.requests.track(() => this.serve(plugin, ctx)),
    );
    plugin.routeRemovers.set(resourceKey, remove);
    this.routeOwners.set(resourceKey, plugin.manifest.name);
  }

  /** The routes answering a method and path (several when they answer different media types; one plugin may serve several groups). */
  private findRoutes(
    plugin: LoadedPlugin,
    method: string,
    info: Pick<RequestInfo, 'apiGroup' | 'apiVersion' | 'parts'>,
  ): RouteMatch[] {
    const found: RouteMatch[] = [];
    for (const route of plugin.routes) {
      if (route.method !== method || route.pattern.group !== info.apiGroup || route.pattern.version !== info.apiVersion)
        continue;
      const params = matchRoute(route.pattern, info.parts);
      if (params && (found.length === 0 || sameParams(found[0].params, params))) found.push({ route, params });
    }
    return found;
  }

  /** The route of this request, chosen by its `Accept` among those of its method and path; 406 when none fits. */
  private chooseRoute(plugin: LoadedPlugin, ctx: RequestContext, method: string) {
    // The match made for the route table, unless the plugin's routes changed since (a reload while authorising).
    const earlier = this.matched.get(ctx.info);
    const candidates =
      earlier && earlier.every((m) => plugin.routes.includes(m.route))
        ? earlier
        : this.findRoutes(plugin, method, ctx.info);
    if (candidates.length === 0) return undefined;
    const chosen = pickByAccept(
      ctx.req.headers.accept,
      candidates.map((c) => c.route.accept),
    );
    if (chosen >= 0) return candidates[chosen];
    const offered = candidates.map((c) => c.route.accept ?? '*/*').join(', ');
    throw new StatusError(
      406,
      'NotAcceptable',
      `this route answers ${offered}; the request accepts ${ctx.req.headers.accept}`,
    );
  }

  /** Forwards one request to the plugin's worker and writes its answer. */
  private async serve(plugin: LoadedPlugin, ctx: RequestContext): Promise<void> {
    const found = this.chooseRoute(plugin, ctx, ctx.req.method ?? 'GET');
    const worker = plugin.worker;
    if (!found || !worker) throw internalError();
    assertBodyType(ctx.req, bodyTypesOf(found.route));
    const body = requestBody(ctx.req, this.options.maxBodyBytes);
    const request = forwardedRequest(ctx, found.route.routeId, found.params);
    let answer;
    try {
      // The user's calls made through req.client say which plugin made them, for which request. (Not `{ ...user,
      // via }`: on this Node a spread followed by a property builds a new hidden class each time, about 1 µs.)
      const via = { plugin: pluginUserName(plugin.manifest.name), requestId: ctx.id };
      const caller = Object.assign({}, ctx.user, { via });
      answer = await worker.request(request, this.options.routeTimeoutMs, body, caller);
    } catch (err) {
      const where = { plugin: plugin.manifest.name, path: ctx.info.path, timeoutMs: this.options.routeTimeoutMs };
      throw body?.refusal() ?? routeFailure(err, { ...where, log: ctx.log });
    }
    const tooLarge = body?.refusal();
    if (tooLarge) throw tooLarge;
    await writeAnswer(ctx.res, answer, ctx.log);
    // A body the handler did not read is drained, so that the connection can serve the next request.
    if (!ctx.req.readableEnded) ctx.req.resume();
  }

  /** Takes the plugin's routes out of service: new requests find no route (404). */
  unmount(plugin: LoadedPlugin): void {
    for (const [key, remove] of plugin.routeRemovers) {
      remove();
      this.routeOwners.delete(key);
    }
    plugin.routeRemovers.clear();
    plugin.routes = [];
  }
}

const sameParams = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);
