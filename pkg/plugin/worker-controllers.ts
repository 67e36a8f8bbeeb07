// Inside a plugin's worker: reads an annotation-style instance's API version and routes (decorators or static
// fields, see sdk.ts) into functional routes.
import { splitApiVersion } from '../api/group-version';
import { API_VERSION_KEY, ROUTES_KEY, type ControllerRoute } from './sdk';

export interface ControllerRouteFound {
  method: string;
  path: string;
  accept?: string;
  contentTypes?: string[];
  handler: (request: Request) => unknown;
}

type ControllerClass = {
  name?: string;
  apiVersion?: unknown;
  routes?: unknown;
  [API_VERSION_KEY]?: string;
  [ROUTES_KEY]?: ControllerRoute[];
};

/**
 * The routes of `instance`, mounted at `/apis/<group>/<version><path>`, or a
 * warning when its class has no API version (the class is then ignored).
 * Throws when a declared route names no method of the instance.
 */
export function controllerRoutes(instance: unknown): { routes: ControllerRouteFound[] } | { warning: string } {
  if (typeof instance !== 'object' || instance === null) {
    throw new Error('routes.controller(instance): pass an instance of a class, e.g. new People()');
  }
  const cls = instance.constructor as ControllerClass;
  const className = cls.name || 'an anonymous class';
  const apiVersion = cls[API_VERSION_KEY] ?? cls.apiVersion;
  if (typeof apiVersion !== 'string' || !splitApiVersion(apiVersion)?.group) {
    return {
      warning: `controller ${className} ignored: it has no API version (@ApiVersion('<group>/<version>') or a static apiVersion)`,
    };
  }
  const declared = [
    ...(cls[ROUTES_KEY] ?? []),
    ...(Array.isArray(cls.routes) ? (cls.routes as ControllerRoute[]) : []),
  ];
  return { routes: declared.map((route) => bind(instance as Record<string, unknown>, className, apiVersion, route)) };
}

function bind(
  instance: Record<string, unknown>,
  className: string,
  apiVersion: string,
  route: ControllerRoute,
): ControllerRouteFound {
  const method = instance[route.handler];
  if (typeof method !== 'function') {
    throw new Error(`controller ${className}: route ${route.method} ${route.path} names no method "${route.handler}"`);
  }
  const path = `/apis/${apiVersion}${route.path.startsWith('/') ? '' : '/'}${route.path}`;
  return {
    method: String(route.method).toUpperCase(),
    path,
    accept: route.accept,
    contentTypes: route.contentTypes,
    handler: (request) => (method as (r: Request) => unknown).call(instance, request),
  };
}
