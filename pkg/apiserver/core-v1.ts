import { methodNotAllowed, notFound } from '../api/errors';
import type { RequestContext } from './context';
import { parseListParams } from './list-params';
import { watchRequested } from './request-info';
import { sendJson } from './respond';
import type { RouteTable } from './routes';

/** Kubernetes' core version; svc serves only the read-only `services` of ADR 0016 there. */
export const CORE_V1 = 'v1';

/**
 * `GET /api/v1`: one resource, `services`, cluster-scoped like everything here, read-only. It exists
 * for `kubectl cluster-info`, which lists the `kubernetes.io/cluster-service=true` services of the
 * core group to show where the control plane's services run (ADR 0016).
 */
export function coreV1Resources() {
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: CORE_V1,
    resources: [
      { name: 'services', singularName: 'service', namespaced: false, kind: 'Service', verbs: ['get', 'list'] },
    ],
  };
}

/**
 * The core `v1` Services: svc runs no Kubernetes Service, so every list is empty (selectors are still
 * checked) and every name is 404. Served at `/api/v1/services` and, for clients that name a namespace,
 * `/api/v1/namespaces/<ns>/services` (namespaces do not exist here and are ignored). Any logged-in user
 * may read it; an anonymous visitor as RBAC decides.
 */
export function registerCoreV1Routes(routes: RouteTable): void {
  routes.add({ group: '', version: CORE_V1, resource: 'services', selfService: true }, async (ctx) =>
    serveServices(ctx, ctx.info.name),
  );
  routes.add(
    // `namespaces/<ns>/services/<name>`: one segment more than a subresource path.
    { group: '', version: CORE_V1, resource: 'namespaces', subresource: 'services', selfService: true, maxParts: 4 },
    async (ctx) => serveServices(ctx, ctx.info.parts[3] ?? ''),
  );
}

function serveServices(ctx: RequestContext, name: string): void {
  const method = ctx.req.method ?? 'GET';
  if ((method !== 'GET' && method !== 'HEAD') || watchRequested(ctx.url.searchParams)) {
    throw methodNotAllowed(method, ctx.info.path);
  }
  if (name) throw notFound({ resource: 'services', name });
  parseListParams(ctx.url.searchParams);
  sendJson(ctx.res, 200, { kind: 'ServiceList', apiVersion: 'v1', metadata: { resourceVersion: '0' }, items: [] });
}
