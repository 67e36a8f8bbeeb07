import type { RequestContext } from '../context';
import type { ResourceStore } from '../../registry/resource-store';
import { apiVersionOf } from '../../registry/model';
import { badRequest, expired } from '../../api/errors';
import type { BoundCondition } from '../../auth/rbac';
import { listEnvelopePaging, parseListParams, type ListParams } from '../list-params';
import { sendJson } from '../respond';
import { toTable, wantsTable } from '../table';
import type { FieldRequirement, ListResult } from '../../storage/query';
import { narrowedList } from '../object-access';

/** A list as read, before it is answered: the parsed query, the page, and the envelope's `metadata`. */
export interface ListRead {
  params: ListParams;
  result: ListResult;
  metadata: Record<string, unknown>;
}

/**
 * GET …/<plural>: Kubernetes' list and Halo's page result in one envelope (docs/api.md).
 * `scope` narrows it further, whatever the query says (e.g. a user's own tokens).
 */
export async function handleList(
  ctx: RequestContext,
  store: ResourceStore,
  scope: FieldRequirement[] = [],
): Promise<void> {
  const read = await readList(store, ctx.url.searchParams, ctx.conditions, scope);
  if (wantsTable(ctx.req.headers.accept)) {
    // The page's continue token goes with the Table too: kubectl reads the next chunk from it.
    const { items, revision } = read.result;
    const table = toTable(store.model, items, revision, ctx.url.searchParams.get('includeObject'));
    sendJson(ctx.res, 200, { ...table, metadata: read.metadata });
    return;
  }
  sendJson(ctx.res, 200, listEnvelope(store, read));
}

/**
 * The page a list reads, over HTTP or in process: its query parsed and checked as HTTP's (`query`), narrowed to
 * the caller's conditional rules (`conditions`, merged into the selectors) and to `scope`.
 */
export async function readList(
  store: ResourceStore,
  query: URLSearchParams,
  conditions: readonly BoundCondition[] | undefined,
  scope: FieldRequirement[] = [],
): Promise<ListRead> {
  const params = parseListParams(query, { indexes: store.model.indexes });
  if (scope.length) params.list.fieldSelector = [...(params.list.fieldSelector ?? []), ...scope];
  if (conditions) params.list = narrowedList(params.list, conditions, store.model.plural);
  const result = await store.list(params.list);
  checkExactRevision(params, result.revision);
  const metadata: Record<string, unknown> = { resourceVersion: result.revision };
  if (result.continue) {
    metadata.continue = result.continue;
    if (result.remainingItemCount !== undefined) metadata.remainingItemCount = result.remainingItemCount;
  }
  return { params, result, metadata };
}

/** The list envelope a list answers (not a Table): kind `<Kind>List`, `metadata`, the items and the paging fields. */
export function listEnvelope(store: ResourceStore, { params, result, metadata }: ListRead): Record<string, unknown> {
  const position = { resumed: params.list.continue !== undefined, more: result.continue !== undefined };
  return {
    apiVersion: apiVersionOf(store.model),
    kind: `${store.model.kind}List`,
    metadata,
    items: result.items,
    ...listEnvelopePaging(params.paging?.page, params.paging?.size, result.total, position),
  };
}

/**
 * `resourceVersionMatch=Exact` asks for the list as it was at `resourceVersion`. The store keeps
 * no older snapshots, so only the current revision can be read exactly; any other is 410 Expired,
 * as Kubernetes answers for a revision past compaction.
 */
function checkExactRevision(params: ListParams, current: string): void {
  const rv = params.resourceVersion;
  if (params.resourceVersionMatch !== 'Exact' || rv === undefined) return;
  if (!/^\d+$/.test(rv)) {
    throw badRequest(
      `invalid resourceVersion "${rv}": resourceVersionMatch=Exact needs a resourceVersion this server returned`,
    );
  }
  if (rv !== current) {
    throw expired(
      `the list at resourceVersion ${rv} is no longer available (resourceVersionMatch=Exact can only ` +
        `read the current resourceVersion, ${current}); list again without resourceVersionMatch`,
    );
  }
}
