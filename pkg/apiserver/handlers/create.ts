import type { RequestContext } from '../context';
import type { ResourceStore } from '../../registry/resource-store';
import { collectionPathOf } from '../../registry/model';
import { decodeBody, readBody } from '../body';
import { sendJson } from '../respond';
import { writeOptions } from './options';
import type { HandlerSettings } from './deps';

/** POST …/<plural>: 201 with `Location` and the stored object (or, with dryRun, what would be stored). */
export async function handleCreate(
  ctx: RequestContext,
  store: ResourceStore,
  settings: HandlerSettings,
): Promise<void> {
  const body = decodeBody(await readBody(ctx.req, settings.maxBodyBytes), ctx.req.headers['content-type']);
  const { object, warnings } = await store.create(body, writeOptions(ctx.url.searchParams, ctx.user, ctx.access));
  const location = `${collectionPathOf(store.model)}/${object.metadata.name}`;
  sendJson(ctx.res, 201, object, { Location: location }, warnings);
}
