import type { RequestContext } from '../context';
import type { ResourceStore } from '../../registry/resource-store';
import type { Preconditions } from '../../storage/interface';
import { badRequest } from '../../api/errors';
import { decodeBody, readBody } from '../body';
import { sendJson } from '../respond';
import { checkPropagationPolicy, writeOptions } from './options';
import type { HandlerSettings } from './deps';

/**
 * DELETE …/<plural>/<name> (API.md §7): the first marks the object and
 * answers it; the one that removes a marked object without finalizers
 * answers a `Success` Status naming it. The optional body is Kubernetes'
 * DeleteOptions; its `preconditions` must hold. A `propagationPolicy` (body
 * or query) must be one of Kubernetes' values.
 */
export async function handleDelete(
  ctx: RequestContext,
  store: ResourceStore,
  settings: HandlerSettings,
): Promise<void> {
  const preconditions = await deleteOptions(ctx, settings);
  const result = await store.delete(ctx.info.name, preconditions, writeOptions(ctx.url.searchParams, ctx.user));
  if (!result.removed) {
    sendJson(ctx.res, 200, result.object);
    return;
  }
  const { model } = store;
  sendJson(ctx.res, 200, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name: ctx.info.name, group: model.group, kind: model.plural, uid: result.object.metadata.uid },
  });
}

/**
 * The preconditions of an optional DeleteOptions body: `{"preconditions": {"resourceVersion": "…", "uid": "…"}}`,
 * after checking `propagationPolicy` in the query and the body.
 */
async function deleteOptions(ctx: RequestContext, settings: HandlerSettings): Promise<Preconditions | undefined> {
  checkPropagationPolicy(ctx.url.searchParams.get('propagationPolicy') ?? undefined, 'propagationPolicy');
  const raw = await readBody(ctx.req, settings.maxBodyBytes);
  if (raw.length === 0 || raw.toString('utf8').trim() === '') return undefined;
  const body = decodeBody(raw, ctx.req.headers['content-type']);
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw badRequest('DeleteOptions must be an object');
  checkPropagationPolicy(
    (body as { propagationPolicy?: unknown }).propagationPolicy,
    'DeleteOptions.propagationPolicy',
  );
  const pre = (body as { preconditions?: unknown }).preconditions;
  if (pre === undefined || pre === null) return undefined;
  if (typeof pre !== 'object' || Array.isArray(pre)) throw badRequest('DeleteOptions.preconditions must be an object');
  const { resourceVersion, uid } = pre as Record<string, unknown>;
  const out: Preconditions = {};
  if (resourceVersion !== undefined && resourceVersion !== null) {
    if (typeof resourceVersion !== 'string') throw badRequest('preconditions.resourceVersion must be a string');
    out.resourceVersion = resourceVersion;
  }
  if (uid !== undefined && uid !== null) {
    if (typeof uid !== 'string') throw badRequest('preconditions.uid must be a string');
    out.uid = uid;
  }
  return Object.keys(out).length ? out : undefined;
}
