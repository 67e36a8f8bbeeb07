import { notFound } from '../../api/errors';
import type { ApiObject } from '../../api/object';
import type { RequestContext } from '../context';
import type { ObjectAccess, ResourceStore } from '../../registry/resource-store';
import type { StoredRead } from '../../storage/interface';
import { sendJson } from '../respond';
import { toTable, wantsTable } from '../table';

/** GET …/<plural>/<name> (and …/status, which answers the whole object as Kubernetes does); a Table when asked. */
export async function handleGet(ctx: RequestContext, store: ResourceStore): Promise<void> {
  const object = await readObject(store, ctx.info.name, ctx.access);
  const body = wantsTable(ctx.req.headers.accept)
    ? toTable(store.model, [object], object.metadata.resourceVersion, ctx.url.searchParams.get('includeObject'))
    : object;
  sendJson(ctx.res, 200, body);
}

/**
 * The object a get answers, over HTTP or in process: 404 when it does not exist, and when it lies outside the
 * caller's conditional rules (`access`), as if it did not exist.
 */
export async function readObject(store: ResourceStore, name: string, access?: ObjectAccess): Promise<ApiObject> {
  const object = await store.get(name);
  if (access && !access.allows(object)) throw notFound(store.subject(name));
  return object;
}

/**
 * `readObject`, answered as the object's JSON text where the store keeps that text (`ResourceStore.getStored`) and no
 * conditional rule has to look at the object first: for a reader that passes the object on as JSON. The same
 * object, the same 404.
 */
export async function readStored(store: ResourceStore, name: string, access?: ObjectAccess): Promise<StoredRead> {
  if (access) return { object: await readObject(store, name, access) };
  return store.getStored(name);
}
