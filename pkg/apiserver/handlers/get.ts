import { notFound } from '../../api/errors';
import type { RequestContext } from '../context';
import type { ResourceStore } from '../../registry/resource-store';
import { sendJson } from '../respond';
import { toTable, wantsTable } from '../table';

/** GET …/<plural>/<name> (and …/status, which answers the whole object as Kubernetes does); a Table when asked. */
export async function handleGet(ctx: RequestContext, store: ResourceStore): Promise<void> {
  const object = await store.get(ctx.info.name);
  // Outside the caller's conditional rules: as if it did not exist.
  if (ctx.access && !ctx.access.allows(object)) throw notFound(store.subject(ctx.info.name));
  const body = wantsTable(ctx.req.headers.accept)
    ? toTable(store.model, [object], object.metadata.resourceVersion, ctx.url.searchParams.get('includeObject'))
    : object;
  sendJson(ctx.res, 200, body);
}
