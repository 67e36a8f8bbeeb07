import type { RequestContext } from '../context';
import type { ResourceStore } from '../../registry/resource-store';
import type { Preconditions } from '../../storage/interface';
import { badRequest, successStatus } from '../../api/errors';
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
  const details = { name: ctx.info.name, group: model.group, kind: model.plural, uid: result.object.metadata.uid };
  sendJson(ctx.res, 200, successStatus(details));
}

/**
 * The preconditions of an optional DeleteOptions body: `{"preconditions": {"resourceVersion": "…", "uid": "…"}}`,
 * after checking `propagationPolicy` in the query and the body.
 */
async function deleteOptions(ctx: RequestContext, settings: HandlerSettings): Promise<Preconditions | undefined> {
  checkPropagationPolicy(ctx.url.searchParams.get('propagationPolicy') ?? undefined, 'propagationPolicy');
  const body = await deleteOptionsBody(ctx, settings);
  if (body === undefined) return undefined;
  checkPropagationPolicy(body.propagationPolicy, 'DeleteOptions.propagationPolicy');
  return preconditionsOf(body.preconditions);
}

/** The DeleteOptions body as an object, or undefined when the request has none (empty or blank). */
async function deleteOptionsBody(
  ctx: RequestContext,
  settings: HandlerSettings,
): Promise<Record<string, unknown> | undefined> {
  const raw = await readBody(ctx.req, settings.maxBodyBytes);
  if (raw.length === 0 || raw.toString('utf8').trim() === '') return undefined;
  const body = decodeBody(raw, ctx.req.headers['content-type']);
  if (!isPlainObject(body)) throw badRequest('DeleteOptions must be an object');
  return body;
}

/** `DeleteOptions.preconditions`: undefined when absent or empty. */
function preconditionsOf(pre: unknown): Preconditions | undefined {
  if (pre === undefined || pre === null) return undefined;
  if (!isPlainObject(pre)) throw badRequest('DeleteOptions.preconditions must be an object');
  const out: Preconditions = {};
  const resourceVersion = optionalString(pre.resourceVersion, 'preconditions.resourceVersion');
  if (resourceVersion !== undefined) out.resourceVersion = resourceVersion;
  const uid = optionalString(pre.uid, 'preconditions.uid');
  if (uid !== undefined) out.uid = uid;
  return Object.keys(out).length ? out : undefined;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A string member that may be absent (undefined or null); anything else is a 400 naming `field`. */
function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest(`${field} must be a string`);
  return value;
}
