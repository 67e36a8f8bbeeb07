import type { RequestContext } from '../context';
import type { ResourceStore } from '../../registry/resource-store';
import { apiVersionOf } from '../../registry/model';
import { parseListParams } from '../list-params';
import { sendJson } from '../respond';
import { checkPropagationPolicy, writeOptions } from './options';

/** DELETE …/<plural>?labelSelector=…: deletes every match; 200 with a `<Kind>List` of what it marked. */
export async function handleDeleteCollection(ctx: RequestContext, store: ResourceStore): Promise<void> {
  const { list } = parseListParams(ctx.url.searchParams);
  checkPropagationPolicy(ctx.url.searchParams.get('propagationPolicy') ?? undefined, 'propagationPolicy');
  const items = await store.deleteCollection(list, writeOptions(ctx.url.searchParams, ctx.user));
  sendJson(ctx.res, 200, {
    apiVersion: apiVersionOf(store.model),
    kind: `${store.model.kind}List`,
    metadata: { resourceVersion: await store.currentRevision() },
    items,
  });
}
