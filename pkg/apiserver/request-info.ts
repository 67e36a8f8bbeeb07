import { badRequest } from '../api/errors';

/**
 * What a request addresses, parsed once from its method and URL; routing and
 * authorisation both read it (Kubernetes' `RequestInfo`).
 *
 * @example parseRequestInfo('GET', '/apis/example.com/v1alpha1/persons/ada')
 *   // → {isResourceRequest: true, verb: 'get', apiPrefix: 'apis', apiGroup: 'example.com',
 *   //    apiVersion: 'v1alpha1', resource: 'persons', name: 'ada', subresource: '', parts: ['persons', 'ada'], …}
 */
export interface RequestInfo {
  /** True for `/api/<v>/<resource>…` and `/apis/<g>/<v>/<resource>…`; false for discovery and every other path. */
  isResourceRequest: boolean;
  /** The decoded path, normalised: one leading `/`, no trailing `/` (`/` for the root). */
  path: string;
  /**
   * Resource requests: get, list, watch, create, update, patch, delete, deletecollection
   * (or the lower-cased method for any other method). Other requests: the lower-cased method.
   */
  verb: string;
  /** `api` or `apis` for paths under them (discovery included); `''` for other paths. */
  apiPrefix: '' | 'api' | 'apis';
  /** `''` for the core group (`/api/…`), as far as the path names one. */
  apiGroup: string;
  /** As far as the path names one. */
  apiVersion: string;
  /** The plural, e.g. `persons`. */
  resource: string;
  /** e.g. `status`; `''` when none. */
  subresource: string;
  /**
   * The object's name; `''` for a collection. The `-` placeholder ("no name",
   * or "me" in user-centre routes such as `users/-/password`) is kept as `-`,
   * so that rules naming `-` in `resourceNames` match it (as in Halo).
   */
  name: string;
  /** The decoded segments after the version: `[resource, name?, subresource?, …]`, `-` kept as sent. */
  parts: string[];
}

/** How a request arrived, beyond its method and URL. */
export interface RequestInfoOptions {
  /** The request is a WebSocket upgrade: a GET of a resource or collection is then a `watch`. */
  isWebSocket?: boolean;
}

/**
 * The most segments a resource path has after its version: `<resource>/<name>/<subresource>`
 * (docs/api.md). A longer path is no generated API's nor built-in route's (404, as in
 * Kubernetes); only a route that declares longer paths serves one.
 */
export const MAX_RESOURCE_PARTS = 3;

const RESOURCE_VERBS: Readonly<Record<string, string>> = {
  GET: 'get',
  HEAD: 'get',
  POST: 'create',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/**
 * Parses a request's method and raw URL (`req.url`: origin-form, or absolute-form
 * whose scheme and authority are ignored). Valid shapes:
 *
 * Resource requests (docs/api.md, docs/security.md):
 *   /api/<version>/<resource>                          core group `""`
 *   /api/<version>/<resource>/<name>
 *   /api/<version>/<resource>/<name>/<subresource>
 *   /apis/<group>/<version>/<resource>
 *   /apis/<group>/<version>/<resource>/<name>
 *   /apis/<group>/<version>/<resource>/<name>/<subresource>
 *   /apis/<group>/<version>/<resource>/-/<subresource>  `-` = no name
 *   (segments after the subresource are kept in `parts`, for the routes that take
 *   longer paths, such as plugins' custom APIs; see MAX_RESOURCE_PARTS)
 *
 * Verbs: GET/HEAD of a name → get; of a collection → list, or watch with
 * `?watch` (any value but `false`/`0`, as Kubernetes) or a WebSocket upgrade; a
 * WebSocket upgrade on a name → watch of that object; POST → create (also
 * `POST …/-/<sub>`); PUT → update; PATCH → patch; DELETE of a name → delete, of a
 * collection → deletecollection. A subresource is never a collection: GET of
 * `…/-/<sub>` is get.
 *
 * Discovery (isResourceRequest false, verb = lower-cased method, apiPrefix and as
 * much of group/version as the path names):
 *   /api   /api/<version>   /apis   /apis/<group>   /apis/<group>/<version>
 *
 * Anything else (`/healthz`, `/openapi/v3`, `/version`) is a non-resource request
 * with verb = lower-cased method and apiPrefix `''`.
 *
 * Segments are percent-decoded here, once. Leading and trailing slashes are
 * ignored (`//apis/…/` is `/apis/…`).
 *
 * @throws StatusError 400 for an encoded slash (`%2F`), a dot segment (`.`, `..`,
 *   also percent-encoded), an empty segment in the middle (`/apis//v1`), or
 *   invalid percent-encoding — before anything reads the path.
 */
export function parseRequestInfo(method: string, rawUrl: string, options: RequestInfoOptions = {}): RequestInfo {
  const { rawPath, query } = splitUrl(rawUrl);
  const segments = decodeSegments(rawPath);
  const info: RequestInfo = {
    isResourceRequest: false,
    path: `/${segments.join('/')}`,
    verb: method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };
  const [prefix, ...rest] = segments;
  if (prefix !== 'api' && prefix !== 'apis') return info;
  info.apiPrefix = prefix;
  if (prefix === 'apis') {
    info.apiGroup = rest.shift() ?? '';
  }
  info.apiVersion = rest.shift() ?? '';
  if (rest.length === 0) return info;
  return resourceInfo(info, rest, method, query, options);
}

/** `info` of a request below an API version: its resource, name, subresource and Kubernetes verb. */
function resourceInfo(
  info: RequestInfo,
  rest: string[],
  method: string,
  query: URLSearchParams,
  options: RequestInfoOptions,
): RequestInfo {
  info.isResourceRequest = true;
  info.parts = rest;
  info.resource = rest[0];
  info.subresource = rest[2] ?? '';
  info.name = rest[1] ?? '';
  info.verb = resourceVerb(info, method, rest.length === 1, query, options);
  return info;
}

/** The verb of a resource request: a collection's GET is list or watch, its DELETE deletecollection. */
function resourceVerb(
  info: RequestInfo,
  method: string,
  collection: boolean,
  query: URLSearchParams,
  options: RequestInfoOptions,
): string {
  const upper = method.toUpperCase();
  const verb = RESOURCE_VERBS[upper] ?? method.toLowerCase();
  if (verb === 'get' && upper === 'GET' && isWebSocketWatch(info, options)) return 'watch';
  if (verb === 'get' && collection) return watchRequested(query) ? 'watch' : 'list';
  if (verb === 'delete' && collection) return 'deletecollection';
  return verb;
}

/** A WebSocket upgrade of a resource's GET (not a subresource's) is a watch. */
const isWebSocketWatch = (info: RequestInfo, options: RequestInfoOptions): boolean =>
  options.isWebSocket === true && info.subresource === '';

/**
 * Whether a query asks for a watch: a `watch` parameter whose first value is
 * anything but `false` or `0` (case-insensitive), as Kubernetes decides it.
 * Exported so that the list-query parser reads the parameter the same way.
 *
 * @example watchRequested(new URLSearchParams('watch=true')) === true
 */
export function watchRequested(query: URLSearchParams): boolean {
  const value = query.get('watch');
  return value !== null && !['false', '0'].includes(value.toLowerCase());
}

/** The still-encoded path and the parsed query of a raw request target. */
function splitUrl(rawUrl: string): { rawPath: string; query: URLSearchParams } {
  let target = rawUrl;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target);
  if (absolute) target = target.slice(absolute[0].length) || '/';
  const hash = target.indexOf('#');
  if (hash >= 0) target = target.slice(0, hash);
  const mark = target.indexOf('?');
  const rawPath = mark >= 0 ? target.slice(0, mark) : target;
  if (!rawPath.startsWith('/')) throw badRequest(`the request path ${quote(rawPath)} must start with "/"`);
  return { rawPath, query: new URLSearchParams(mark >= 0 ? target.slice(mark + 1) : '') };
}

/** The path's segments, checked and percent-decoded once; leading and trailing slashes dropped. */
function decodeSegments(rawPath: string): string[] {
  const raw = rawPath.replace(/^\/+/, '').replace(/\/+$/, '');
  if (raw === '') return [];
  return raw.split('/').map((segment) => {
    if (segment === '') throw badRequest(`the request path ${quote(rawPath)} has an empty segment`);
    if (/%2f/i.test(segment)) throw badRequest(`the request path ${quote(rawPath)} has an encoded slash (%2F)`);
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw badRequest(`the request path ${quote(rawPath)} has invalid percent-encoding`);
    }
    if (decoded === '.' || decoded === '..') {
      throw badRequest(`the request path ${quote(rawPath)} has a dot segment ("${decoded}")`);
    }
    return decoded;
  });
}

/** A path quoted for an error message, cut short so that a huge URL does not make a huge error. */
const quote = (path: string): string => JSON.stringify(path.length > 200 ? `${path.slice(0, 200)}...` : path);
