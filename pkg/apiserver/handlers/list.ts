import type { RequestContext } from '../context';
import type { ResourceStore } from '../../registry/resource-store';
import { apiVersionOf } from '../../registry/model';
import { listEnvelopePaging, parseListParams } from '../list-params';
import { sendJson } from '../respond';
import { toTable, wantsTable } from '../table';

/** GET …/<plural>: Kubernetes' list and Halo's page result in one envelope (API.md §4). */
export async function handleList(ctx: RequestContext, store: ResourceStore): Promise<void> {
  const params = parseListParams(ctx.url.searchParams, { indexes: store.model.indexes });
  const result = await store.list(params.list);
  if (wantsTable(ctx.req.headers.accept)) {
    sendJson(ctx.res, 200, toTable(store.model, result.items, result.revision, ctx.url.searchParams.get('includeObject')));
    return;
  }
  const metadata: Record<string, unknown> = { resourceVersion: result.revision };
  if (result.continue) {
    metadata.continue = result.continue;
    metadata.remainingItemCount = Math.max(0, result.total - (params.list.offset ?? 0) - result.items.length);
  }
  sendJson(ctx.res, 200, {
    apiVersion: apiVersionOf(store.model),
    kind: `${store.model.kind}List`,
    metadata,
    items: result.items,
    ...listEnvelopePaging(params.paging?.page, params.paging?.size, result.total),
  });
}
