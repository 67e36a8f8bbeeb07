/**
 * The plugin author's API: the types of `ctx` and of what a route handler
 * receives, and the decorators of the annotation style. Inside a plugin,
 * `require('svc/plugin')` (or `import … from 'svc/plugin'` compiled to
 * CommonJS) loads this module. See docs/plugins.md.
 *
 * @example
 * // index.js, plain JavaScript
 * const { ApiVersion, Get } = require('svc/plugin');
 * module.exports = {
 *   async start(ctx) {
 *     await ctx.schemes.register(
 *       { group: 'people.example.com', version: 'v1alpha1', names: { kind: 'Person', plural: 'persons' } },
 *       (ix) => ix.add({ name: 'spec.name', indexFunc: (person) => person.spec.name }),
 *     );
 *     ctx.routes.get('/apis/api.people.example.com/v1alpha1/greetings/{name}', (req) => ({ hello: req.params.name }));
 *   },
 * };
 *
 * @example
 * // TypeScript, with "experimentalDecorators" or standard decorators
 * import { ApiVersion, Get, type PluginContext, type PluginRequest } from 'svc/plugin';
 * \@ApiVersion('api.people.example.com/v1alpha1')
 * class Directory {
 *   \@Get('/directory/{name}')
 *   entry(req: PluginRequest) { return { name: req.params.name }; }
 * }
 * export function start(ctx: PluginContext) { ctx.routes.controller(new Directory()); }
 */
import type { ApiClient } from '../client/api-client';

/** `plugin.yaml`'s name, version and `spec.settings`. */
export interface PluginInfo {
  readonly name: string;
  readonly version: string;
  readonly settings: Readonly<Record<string, unknown>>;
}

/** Lines go to the apiserver's log with `plugin: <name>`; at most 100 a second per plugin (the rest are counted). */
export interface PluginLog {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** A stored object as an index function sees it (a copy; changing it changes nothing). */
export interface StoredObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> } & Record<
    string,
    unknown
  >;
  spec?: any;
  status?: any;
}

/**
 * An index of a plugin model: a `path` (`spec.email`, `spec.tags[*]`) or an
 * `indexFunc`. An index function is shipped as source and run in a sandbox
 * inside the apiserver on every write: pure, synchronous, no variables from
 * outside it, no `require`; it returns a value, several, or nothing. One that
 * only reads a path (`.name`, `?.name`, `['name']`, one case fold or `trim()`,
 * a `?? 'text'` or `|| []` fallback) costs what a `path` costs; any other runs
 * in an isolate of the model's own, which costs every write more.
 *
 * @example
 * ix.add({ name: 'spec.email', unique: true, indexFunc: (person) => person.spec.email?.toLowerCase() });
 */
export interface IndexDeclaration {
  /** What `fieldSelector` and `sort` name, e.g. `spec.email`. */
  name: string;
  /** At most one object per value; a second is a 409. Default false. */
  unique?: boolean;
  /** The direction of a sort on this index that names none. Default `ASC`. */
  order?: 'ASC' | 'DESC';
  path?: string;
  indexFunc?: (object: StoredObject) => string | string[] | undefined | null;
}

/** Collects a model's indexes: `(ix) => ix.add({...}).add({...})`. */
export interface IndexCollector {
  add(index: IndexDeclaration): IndexCollector;
}

/** A model as a `Model` object's `spec` declares it. */
export interface ModelDeclaration {
  group: string;
  version: string;
  names: { kind: string; singular?: string; plural: string; shortNames?: string[] };
  schema?: Record<string, unknown>;
  printerColumns?: { name: string; type: string; jsonPath: string; description?: string }[];
}

/** The caller of a route, as authenticated by the apiserver. */
export interface PluginUser {
  readonly name: string;
  readonly groups: readonly string[];
}

/**
 * What a route handler receives: a WHATWG `Request` (its body a stream:
 * `req.body`, or read whole with `req.text()`, `req.json()`) with the path
 * parameters and the caller. `Authorization` and `Cookie` are not passed on.
 */
export type PluginRequest = Request & {
  readonly params: Readonly<Record<string, string>>;
  readonly user: PluginUser;
  /**
   * The API as the caller of this route, with exactly their rights (their conditional rules included), until the
   * handler answers; it cannot watch. Undefined when the apiserver does not answer plugins in process.
   */
  readonly client?: ApiClient;
};

/**
 * A route handler: returns a `Response` (a `ReadableStream` body streams to
 * the client), a value answered as JSON (200), or nothing (204); or a
 * promise of one. A throw is a 500 for the client and a line in the log.
 */
export type RouteHandler = (req: PluginRequest) => unknown;

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A functional route: `path` is `/apis/<group>/<version>/<resource>[/…]` with `{param}` segments. */
export interface RouteSpec {
  method: RouteMethod | Lowercase<RouteMethod>;
  path: string;
  /**
   * The media type the route answers, e.g. `text/csv`. A request whose `Accept` does not allow it gets 406;
   * several routes may share a method and path with different types, and the request's `Accept` picks one.
   */
  accept?: string;
  /**
   * Body media types the route reads besides JSON and YAML (and the patch types on PATCH), e.g. `['text/csv']`.
   * A body of any other type is 415 before the handler runs.
   */
  contentTypes?: string[];
}

/** One route of an annotation-style class in plain JavaScript: `static routes = [{method, path, handler}]`. */
export interface ControllerRoute {
  method: RouteMethod | Lowercase<RouteMethod>;
  /** Below `/apis/<group>/<version>`, starting with `/`. */
  path: string;
  /** The name of the method that handles it. */
  handler: string;
  accept?: string;
  /** See RouteSpec. */
  contentTypes?: string[];
}

export interface PluginRoutes {
  get(path: string, handler: RouteHandler): void;
  post(path: string, handler: RouteHandler): void;
  put(path: string, handler: RouteHandler): void;
  patch(path: string, handler: RouteHandler): void;
  delete(path: string, handler: RouteHandler): void;
  add(route: RouteSpec, handler: RouteHandler): void;
  /**
   * Mounts an instance of an annotation-style class: its API version (`@ApiVersion` or a static `apiVersion`)
   * and its routes (`@Get(path)`… or a static `routes`) at `/apis/<group>/<version><path>`. A class without an
   * API version is ignored, with a warning in the Plugin's message.
   */
  controller(instance: object): void;
}

/** The `ctx` handed to `start(ctx)` and `stop(ctx)`. */
export interface PluginContext {
  readonly plugin: PluginInfo;
  readonly log: PluginLog;
  readonly schemes: {
    /** Serves the model; resolves once it is served (the plugin is STARTING while its indexes build). */
    register(model: ModelDeclaration, indexes?: IndexDeclaration[] | ((ix: IndexCollector) => unknown)): Promise<void>;
  };
  readonly routes: PluginRoutes;
  /** The API as the plugin's own user, `system:plugin:<name>`; undefined when the apiserver gives plugins none. */
  readonly client?: ApiClient;
}

/** What `index.js` exports; both optional, either may be async. */
export interface PluginModule {
  start?(ctx: PluginContext): unknown;
  stop?(ctx: PluginContext): unknown;
}

/** Where the decorators keep what they declare, on the class (shared by every copy of this module). */
export const API_VERSION_KEY = Symbol.for('svc.plugin.apiVersion');
export const ROUTES_KEY = Symbol.for('svc.plugin.routes');

type Decorated = { [API_VERSION_KEY]?: string; [ROUTES_KEY]?: ControllerRoute[] };
interface StandardContext {
  kind: string;
  name: string | symbol;
  addInitializer(init: (this: unknown) => void): void;
}
const isStandard = (context: unknown): context is StandardContext =>
  typeof context === 'object' && context !== null && 'kind' in context;

/**
 * The class's API version, `<group>/<version>`; its routes are mounted under `/apis/<group>/<version>`.
 *
 * @example
 * \@ApiVersion('api.people.example.com/v1alpha1')
 * class People { … }
 */
export function ApiVersion(apiVersion: string) {
  return (target: unknown, _context?: unknown): void => {
    (target as Decorated)[API_VERSION_KEY] = apiVersion;
  };
}

function route(method: RouteMethod, path: string, accept?: string, contentTypes?: string[]) {
  return (target: unknown, context: unknown, _descriptor?: unknown): void => {
    if (isStandard(context)) {
      const name = String(context.name);
      context.addInitializer(function (this: unknown) {
        record((this as { constructor: Decorated }).constructor, { method, path, handler: name, accept, contentTypes });
      });
    } else {
      const handler = String(context);
      record((target as { constructor: Decorated }).constructor, { method, path, handler, accept, contentTypes });
    }
  };
}

function record(cls: Decorated, declared: ControllerRoute): void {
  const own = Object.prototype.hasOwnProperty.call(cls, ROUTES_KEY) ? cls[ROUTES_KEY]! : [];
  if (own.some((r) => r.handler === declared.handler && r.method === declared.method)) return;
  cls[ROUTES_KEY] = [...own, declared];
}

/** `GET <path>` (below the class's API version) is handled by this method; `accept`: see RouteSpec. */
export const Get = (path: string, accept?: string) => route('GET', path, accept);
/** `POST <path>` is handled by this method; `accept` and `contentTypes`: see RouteSpec. */
export const Post = (path: string, accept?: string, contentTypes?: string[]) =>
  route('POST', path, accept, contentTypes);
export const Put = (path: string, accept?: string, contentTypes?: string[]) => route('PUT', path, accept, contentTypes);
export const Patch = (path: string, accept?: string, contentTypes?: string[]) =>
  route('PATCH', path, accept, contentTypes);
export const Delete = (path: string, accept?: string) => route('DELETE', path, accept);
