import type { RequestContext } from '../context';
import type { ResourceStore } from '../../registry/resource-store';
import { isNotFound } from '../../api/errors';
import { mediaType, readBody } from '../body';
import { sendJson } from '../respond';
import { applyPatch, decodePatch } from '../patch';
import { writeOptions } from './options';
import type { HandlerSettings } from './deps';

const APPLY = 'application/apply-patch+yaml';

/**
 * PATCH …/<plural>/<name>[/status]: merge patch, JSON patch, strategic merge
 * (as merge) and server-side apply, which creates the object when it does
 * not exist (docs/api.md, docs/kubectl.md).
 */
export async function handlePatch(ctx: RequestContext, store: ResourceStore, settings: HandlerSettings): Promise<void> {
  const type = mediaType(ctx.req.headers['content-type']);
  const patch = decodePatch(type, await readBody(ctx.req, settings.maxBodyBytes));
  const options = writeOptions(ctx.url.searchParams, ctx.user, ctx.access);
  const { name, subresource } = ctx.info;
  const sub = subresource === 'status' ? 'status' : undefined;
  try {
    const { object, warnings } = await store.patch(name, (current) => applyPatch(type, current, patch), options, sub);
    sendJson(ctx.res, 200, object, {}, warnings);
  } catch (err) {
    if (type !== APPLY || sub || !isNotFound(err)) throw err;
    const created = await store.create(
      { ...(patch as object), metadata: { ...((patch as { metadata?: object }).metadata ?? {}), name } },
      options,
    );
    sendJson(ctx.res, 201, created.object, {}, created.warnings);
  }
}
