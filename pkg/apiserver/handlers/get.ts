import type { RequestContext } from '../context';
import type { ResourceStore } from '../../registry/resource-store';
import { sendJson } from '../respond';

/** GET …/<plural>/<name> (and …/status, which answers the whole object as Kubernetes does). */
export async function handleGet(ctx: RequestContext, store: ResourceStore): Promise<void> {
  sendJson(ctx.res, 200, await store.get(ctx.info.name));
}
