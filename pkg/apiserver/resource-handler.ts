import type { RequestContext } from './context';
import type { RegisteredModel, SchemeManager } from '../registry/scheme';
import { methodNotAllowed, routeNotFound, serviceUnavailable } from '../api/errors';
import { RESOURCE_VERBS } from '../api/verbs';
import { handleGet } from './handlers/get';
import { handleList } from './handlers/list';
import { handleCreate } from './handlers/create';
import { handleUpdate } from './handlers/update';
import { handlePatch } from './handlers/patch';
import { handleDelete } from './handlers/delete';
import { handleDeleteCollection } from './handlers/delete-collection';
import { handleWatch } from './handlers/watch';
import type { HandlerSettings } from './handlers/deps';
import type { ResourceStore } from '../registry/resource-store';
import { MAX_RESOURCE_PARTS, type RequestInfo } from './request-info';
import { objectAccess, usableConditions } from './object-access';
import { forbiddenRequest } from './forbidden';

/** The verbs each endpoint of a model serves. */
const MAIN_VERBS: ReadonlySet<string> = new Set(RESOURCE_VERBS);
const STATUS_VERBS = new Set(['get', 'update', 'patch']);

/** The part of a request that choosing its model and judging its verb read (an in-process read has no more). */
export type ResourceRequest = Pick<RequestContext, 'info' | 'user' | 'conditions' | 'access'>;

/** The model a resource request addresses, served and ready; 404 or 503 otherwise. */
export function modelFor(ctx: Pick<RequestContext, 'info'>, schemes: SchemeManager): RegisteredModel {
  const { apiGroup, apiVersion, resource } = ctx.info;
  const registered = schemes.lookup(apiGroup, apiVersion, resource);
  if (!registered) throw routeNotFound();
  if (!schemes.isReady(registered)) {
    throw serviceUnavailable(
      `the indexes of ${resource}${apiGroup ? `.${apiGroup}` : ''} are still being built; retry shortly`,
      5,
    );
  }
  return registered;
}

/**
 * The model an admitted resource request addresses, once its path, its conditional rules and its verb are checked:
 * 404 past the longest path or for a subresource but `status`, 403 when none of its conditions can hold on the
 * model, 405 for a verb the endpoint does not serve. Sets the request's `access` from its conditions. Every resource
 * request goes through it, over HTTP or in process.
 */
export function resourceFor(ctx: ResourceRequest, schemes: SchemeManager, method: string): RegisteredModel {
  const { subresource, parts } = ctx.info;
  if (parts.length > MAX_RESOURCE_PARTS || (subresource && subresource !== 'status')) throw routeNotFound();
  const registered = modelFor(ctx, schemes);
  if (ctx.conditions) {
    ctx.conditions = usableConditions(ctx.conditions, registered.model);
    if (ctx.conditions.length === 0) throw forbiddenRequest(ctx.user, ctx.info);
    ctx.access = objectAccess(ctx.conditions, registered.model);
  }
  if (!HANDLERS.has(ctx.info.verb) || !verbServed(ctx.info, registered.model.verbs)) {
    throw methodNotAllowed(method, ctx.info.path);
  }
  return registered;
}

type Handler = (ctx: RequestContext, store: ResourceStore, settings: HandlerSettings) => Promise<void>;

/** The handler of each verb. */
const HANDLERS = new Map<string, Handler>(
  Object.entries({
    get: handleGet,
    list: (ctx, store) => handleList(ctx, store),
    watch: handleWatch,
    create: handleCreate,
    update: handleUpdate,
    patch: handlePatch,
    delete: handleDelete,
    deletecollection: handleDeleteCollection,
  } satisfies Record<string, Handler>),
);

/** Dispatches a resource request by verb and subresource (no router in the hot path). */
export async function serveResource(
  ctx: RequestContext,
  schemes: SchemeManager,
  settings: HandlerSettings,
): Promise<void> {
  const { store } = resourceFor(ctx, schemes, ctx.req.method ?? 'GET');
  return HANDLERS.get(ctx.info.verb)!(ctx, store, settings);
}

/** Whether the endpoint serves the request's verb, on this path, for a model that may limit its verbs. */
function verbServed(info: RequestInfo, modelVerbs: readonly string[] | undefined): boolean {
  const { verb, subresource, name } = info;
  const allowed = subresource ? STATUS_VERBS : MAIN_VERBS;
  // POST to a name is no create (docs/api.md); PUT/PATCH need a name.
  const misplaced =
    (verb === 'create' && name !== '' && !subresource) || ((verb === 'update' || verb === 'patch') && name === '');
  return allowed.has(verb) && !misplaced && (modelVerbs === undefined || modelVerbs.includes(verb));
}
