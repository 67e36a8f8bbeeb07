import type { RequestContext } from '../context';
import type { ResourceStore } from '../../registry/resource-store';
import { apiVersionOf } from '../../registry/model';
import { parseListParams } from '../list-params';
import { narrowedList } from '../object-access';
import { sendJson } from '../respond';
import { readDeleteRequest } from './delete-options';
import type { HandlerSettings } from './deps';

/**
 * DELETE …/<plural>?labelSelector=…: deletes every match; 200 with a `<Kind>List` of what it marked. The
 * optional DeleteOptions body is read as for one object (its `dryRun` writes nothing); its preconditions,
 * which name one object, do not apply to a collection, as in Kubernetes.
 */
export async function handleDeleteCollection(
  ctx: RequestContext,
  store: ResourceStore,
  settings: HandlerSettings,
): Promise<void> {
  const { list } = parseListParams(ctx.url.searchParams);
  const { options } = await readDeleteRequest(ctx, settings);
  const scoped = ctx.conditions ? narrowedList(list, ctx.conditions, store.model.plural) : list;
  const items = await store.deleteCollection(scoped, options);
  sendJson(ctx.res, 200, {
    apiVersion: apiVersionOf(store.model),
    kind: `${store.model.kind}List`,
    metadata: { resourceVersion: await store.currentRevision() },
    items,
  });
}
