import type { RequestContext } from './context';
import type { Storage } from '../storage/interface';
import type { SchemeManager } from '../registry/scheme';
import { methodNotAllowed, routeNotFound } from '../api/errors';
import { CORE_VERSION, type Discovery } from './discovery';
import { CORE_V1, coreV1Resources } from './core-v1';
import type { OpenApi } from './openapi';
import { serveOpenApiV2 } from './openapi-v2';
import type { ApiMetrics } from './metrics';
import { sendJson } from './respond';
import { versionInfo } from './version';
import { CONSOLE_PATH, serveConsole } from './console';
import type { ConsolePlugins } from './console-plugins';

/** What the non-resource endpoints read. */
export interface NonResourceDeps {
  storage: Storage;
  schemes: SchemeManager;
  discovery: Discovery;
  openapi: OpenApi;
  metrics: ApiMetrics;
  /** True once the server is draining: `/readyz` answers 503 so that load balancers move on. */
  draining: () => boolean;
  /** The console pages of running plugins, whose files are served under `/console/plugin-files/`. */
  consolePlugins?: ConsolePlugins;
}

/** The non-resource endpoints `GET /` lists besides discovery. */
const NON_RESOURCE_PATHS = ['/healthz', '/livez', '/readyz', '/metrics', '/openapi/v2', '/openapi/v3', '/version'];

function sendText(ctx: RequestContext, code: number, text: string): void {
  ctx.res.writeHead(code, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
  });
  ctx.res.end(text);
}

/**
 * Health, metrics, version, discovery and OpenAPI (docs/api.md), and `/`, which
 * lists them as Kubernetes does (`{"paths": [...]}`, sorted). Returns false
 * when the path is none of them.
 */
export async function serveNonResource(ctx: RequestContext, deps: NonResourceDeps): Promise<boolean> {
  const path = ctx.info.path.replace(/\/+$/, '') || '/';
  const method = ctx.req.method ?? 'GET';
  const json = (body: unknown) => {
    if (body === undefined) throw routeNotFound();
    sendJson(ctx.res, 200, body);
  };
  const handler = route(path, ctx, deps, json);
  if (!handler) return false;
  if (method !== 'GET' && method !== 'HEAD') throw methodNotAllowed(method, path);
  await handler();
  return true;
}

type Json = (body: unknown) => void;
type Handler = () => void | Promise<void>;

/** The fixed paths and what answers each. */
const FIXED_ROUTES = new Map<string, (ctx: RequestContext, deps: NonResourceDeps, json: Json) => Handler>([
  ['/', (_ctx, deps, json) => () => json({ paths: [...deps.discovery.paths(), ...NON_RESOURCE_PATHS].sort() })],
  ['/healthz', (ctx) => () => sendText(ctx, 200, 'ok')],
  ['/livez', (ctx) => () => sendText(ctx, 200, 'ok')],
  ['/readyz', (ctx, deps) => () => readyz(ctx, deps)],
  ['/metrics', (ctx, deps) => () => serveMetrics(ctx, deps)],
  ['/version', (_ctx, _deps, json) => () => json(versionInfo())],
  ['/api', (ctx, deps, json) => () => json(deps.discovery.apiVersions(ctx.req.headers.host ?? ''))],
  ['/apis', (_ctx, deps, json) => () => json(deps.discovery.groupList())],
  ['/openapi/v2', (ctx) => () => serveOpenApiV2(ctx)],
  ['/openapi/v3', (_ctx, deps, json) => () => json(deps.openapi.index())],
]);

function route(path: string, ctx: RequestContext, deps: NonResourceDeps, json: Json): Handler | undefined {
  const fixed = FIXED_ROUTES.get(path);
  if (fixed) return fixed(ctx, deps, json);
  if (path === CONSOLE_PATH || path.startsWith(`${CONSOLE_PATH}/`))
    return () => serveConsole(ctx, path, deps.consolePlugins);
  return discoveryRoute(path, deps, json);
}

async function serveMetrics(ctx: RequestContext, deps: NonResourceDeps): Promise<void> {
  const text = await deps.metrics.registry.metrics();
  ctx.res.writeHead(200, { 'Content-Type': deps.metrics.registry.contentType });
  ctx.res.end(text);
}

/** The OpenAPI documents and the discovery of each version and group (`/openapi/v3/…`, `/api/v1`, `/apis/<group>[/<version>]`). */
function discoveryRoute(
  path: string,
  deps: NonResourceDeps,
  json: (body: unknown) => void,
): (() => void | Promise<void>) | undefined {
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'openapi' && parts[1] === 'v3') return () => json(deps.openapi.document(parts.slice(2).join('/')));
  if (parts[0] === 'api' && parts.length === 2) return () => json(coreResources(parts[1], deps));
  if (parts[0] === 'apis' && parts.length === 2) {
    // kubectl looks for non-v1 core versions under /apis (docs/kubectl.md).
    return () =>
      json(parts[1] === CORE_VERSION ? deps.discovery.resources('', CORE_VERSION) : deps.discovery.group(parts[1]));
  }
  if (parts[0] === 'apis' && parts.length === 3) return () => json(deps.discovery.resources(parts[1], parts[2]));
  return undefined;
}

function coreResources(version: string, deps: NonResourceDeps) {
  if (version === CORE_VERSION) return deps.discovery.resources('', CORE_VERSION);
  return version === CORE_V1 ? coreV1Resources() : undefined;
}

async function readyz(ctx: RequestContext, deps: NonResourceDeps): Promise<void> {
  const problems: string[] = [];
  if (deps.draining()) problems.push('shutting down');
  if (!(await deps.storage.ping().catch(() => false))) problems.push('storage unreachable');
  const building = deps.schemes
    .all()
    .filter((r) => !deps.schemes.isReady(r))
    .map((r) => r.store.type);
  if (building.length) problems.push(`indexes being built: ${building.join(', ')}`);
  sendText(ctx, problems.length ? 503 : 200, problems.length ? problems.join('\n') : 'ok');
}
