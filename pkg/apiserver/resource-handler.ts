import type { RequestContext } from './context';
import type { RegisteredModel, SchemeManager } from '../registry/scheme';
import { methodNotAllowed, routeNotFound, serviceUnavailable } from '../api/errors';
import { handleGet } from './handlers/get';
import { handleList } from './handlers/list';
import { handleCreate } from './handlers/create';
import { handleUpdate } from './handlers/update';
import { handlePatch } from './handlers/patch';
import { handleDelete } from './handlers/delete';
import { handleDeleteCollection } from './handlers/delete-collection';
import { handleWatch } from './handlers/watch';
import type { HandlerSettings } from './handlers/deps';

/** The verbs each endpoint of a model serves. */
const MAIN_VERBS = new Set(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection']);
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

/** Dispatches a resource request by verb and subresource (DESIGN.md §4.8: no router in the hot path). */
export async function serveResource(
  ctx: RequestContext,
  schemes: SchemeManager,
  settings: HandlerSettings,
): Promise<void> {
  const { store, model } = modelFor(ctx, schemes);
  const { verb, subresource, name } = ctx.info;
  const method = ctx.req.method ?? 'GET';
  if (subresource && subresource !== 'status') throw routeNotFound();
  const allowed = subresource ? STATUS_VERBS : MAIN_VERBS;
  // POST to a name is no create (API.md §3); PUT/PATCH need a name.
  const misplaced =
    (verb === 'create' && name !== '' && !subresource) || ((verb === 'update' || verb === 'patch') && name === '');
  if (!allowed.has(verb) || misplaced || (model.verbs && !model.verbs.includes(verb))) {
    throw methodNotAllowed(method, ctx.info.path);
  }
  switch (verb) {
    case 'get':
      return handleGet(ctx, store);
    case 'list':
      return handleList(ctx, store);
    case 'watch':
      return handleWatch(ctx, store, settings);
    case 'create':
      return handleCreate(ctx, store, settings);
    case 'update':
      return handleUpdate(ctx, store, settings);
    case 'patch':
      return handlePatch(ctx, store, settings);
    case 'delete':
      return handleDelete(ctx, store, settings);
    case 'deletecollection':
      return handleDeleteCollection(ctx, store);
  }
}
