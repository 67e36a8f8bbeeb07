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
import { MAX_RESOURCE_PARTS } from './request-info';
import { objectAccess, usableConditions } from './object-access';
import { forbiddenRequest } from './forbidden';

/** The verbs each endpoint of a model serves. */
const MAIN_VERBS: ReadonlySet<string> = new Set(RESOURCE_VERBS);
const STATUS_VERBS = new Set(['get', 'update', 'patch']);

/** The model a resource request addresses, served and ready; 404 or 503 otherwise. */
export function modelFor(ctx: RequestContext, schemes: SchemeManager): RegisteredModel {
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
  const { verb, subresource, parts } = ctx.info;
  if (parts.length > MAX_RESOURCE_PARTS || (subresource && subresource !== 'status')) throw routeNotFound();
  const { store, model } = modelFor(ctx, schemes);
  if (ctx.conditions) {
    ctx.conditions = usableConditions(ctx.conditions, model);
    if (ctx.conditions.length === 0) throw forbiddenRequest(ctx.user, ctx.info);
    ctx.access = objectAccess(ctx.conditions, model);
  }
  const handler = HANDLERS.get(verb);
  if (handler === undefined || !verbServed(ctx, model.verbs)) {
    throw methodNotAllowed(ctx.req.method ?? 'GET', ctx.info.path);
  }
  return handler(ctx, store, settings);
}

/** Whether the endpoint serves the request's verb, on this path, for a model that may limit its verbs. */
function verbServed(ctx: RequestContext, modelVerbs: readonly string[] | undefined): boolean {
  const { verb, subresource, name } = ctx.info;
  const allowed = subresource ? STATUS_VERBS : MAIN_VERBS;
  // POST to a name is no create (docs/api.md); PUT/PATCH need a name.
  const misplaced =
    (verb === 'create' && name !== '' && !subresource) || ((verb === 'update' || verb === 'patch') && name === '');
  return allowed.has(verb) && !misplaced && (modelVerbs === undefined || modelVerbs.includes(verb));
}
