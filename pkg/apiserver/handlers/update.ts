import type { RequestContext } from '../context';
import type { ResourceStore } from '../../registry/resource-store';
import { decodeBody, readBody } from '../body';
import { sendJson } from '../respond';
import { writeOptions } from './options';
import type { HandlerSettings } from './deps';

/** PUT …/<plural>/<name> (all but status) and PUT …/<name>/status (status only). */
export async function handleUpdate(
  ctx: RequestContext,
  store: ResourceStore,
  settings: HandlerSettings,
): Promise<void> {
  const body = decodeBody(await readBody(ctx.req, settings.maxBodyBytes), ctx.req.headers['content-type']);
  const options = writeOptions(ctx.url.searchParams, ctx.user, ctx.access);
  const { name, subresource } = ctx.info;
  const { object, warnings } =
    subresource === 'status' ? await store.updateStatus(name, body, options) : await store.update(name, body, options);
  sendJson(ctx.res, 200, object, {}, warnings);
}
