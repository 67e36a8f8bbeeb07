import type { RequestContext } from './context';
import { MAX_RESOURCE_PARTS, type RequestInfo } from './request-info';

/** Answers one request that a route matched. */
export type RouteHandler = (ctx: RequestContext) => Promise<void>;

/** Where a route is served: a resource (and subresource) of one group and version. */
export interface RouteSpec {
  group: string;
  version: string;
  resource: string;
  /** `''` (the default) for the resource itself; `'*'` for every path under the resource that `accepts` takes. */
  subresource?: string;
  /**
   * With `subresource: '*'`: whether this route serves the request (method
   * and path); one it does not falls through to the next route or the models.
   */
  accepts?: (info: RequestInfo, method: string) => boolean;
  /**
   * The most path segments after the version the route takes; default
   * MAX_RESOURCE_PARTS (`<resource>/<name>/<subresource>`). A longer path is
   * not this route's: it falls through (to a 404). `subresource: '*'` routes
   * judge the whole path with `accepts` instead.
   */
  maxParts?: number;
  /**
   * Any logged-in user may call it, whatever their roles: the handler
   * authorises what is asked (self-service access reviews, docs/security.md).
   */
  selfService?: boolean;
}

/** A registered route: its spec and handler. */
export interface Route extends Required<Omit<RouteSpec, 'selfService' | 'accepts'>> {
  selfService: boolean;
  accepts?: RouteSpec['accepts'];
  handler: RouteHandler;
}

/**
 * The apiserver's table of resource routes that are not a stored model's
 * generated API: built-in subresources (`users/{name}/password`), virtual
 * resources (`accessreviews`, `users/-/permissions`) and plugins' routes
 * (`subresource: '*'`, matched by the plugin's own path patterns). One map
 * lookup per request, keyed by group, version, resource and subresource
 * from the request info; a miss falls through to the models.
 */
export class RouteTable {
  private readonly routes = new Map<string, Route>();

  /** Adds a route; throws when one is already registered at the same place. Returns what removes it. */
  add(spec: RouteSpec, handler: RouteHandler): () => void {
    const route: Route = {
      group: spec.group,
      version: spec.version,
      resource: spec.resource,
      subresource: spec.subresource ?? '',
      maxParts: spec.maxParts ?? MAX_RESOURCE_PARTS,
      selfService: spec.selfService ?? false,
      accepts: spec.accepts,
      handler,
    };
    const key = keyOf(route.group, route.version, route.resource, route.subresource);
    if (this.routes.has(key)) throw new Error(`a route is already registered for ${key}`);
    this.routes.set(key, route);
    return () => {
      if (this.routes.get(key) === route) this.routes.delete(key);
    };
  }

  /** The route a resource request (`method`, default GET) addresses, if any. */
  lookup(info: RequestInfo, method = 'GET'): Route | undefined {
    if (!info.isResourceRequest || this.routes.size === 0) return undefined;
    // A literal `*` in the path is a subresource like any other, not the wildcard route's key.
    const exact =
      info.subresource === '*'
        ? undefined
        : this.routes.get(keyOf(info.apiGroup, info.apiVersion, info.resource, info.subresource));
    if (exact && info.parts.length <= exact.maxParts) return exact;
    const any = this.routes.get(keyOf(info.apiGroup, info.apiVersion, info.resource, '*'));
    return any?.accepts?.(info, method) ? any : undefined;
  }
}

const keyOf = (group: string, version: string, resource: string, subresource: string) =>
  `${group}/${version}/${resource}/${subresource}`;
