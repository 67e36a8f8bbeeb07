import type { RequestContext } from '../context';
import type { ResourceStore } from '../../registry/resource-store';
import { successStatus } from '../../api/errors';
import { sendJson } from '../respond';
import { readDeleteRequest } from './delete-options';
import type { HandlerSettings } from './deps';

/**
 * DELETE …/<plural>/<name> (docs/api.md): the first marks the object and
 * answers it; the one that removes a marked object without finalizers
 * answers a `Success` Status naming it. The optional body is Kubernetes'
 * DeleteOptions (`delete-options.ts`): its `preconditions` must hold, its
 * `dryRun` writes nothing.
 */
export async function handleDelete(
  ctx: RequestContext,
  store: ResourceStore,
  settings: HandlerSettings,
): Promise<void> {
  const { preconditions, options } = await readDeleteRequest(ctx, settings);
  const result = await store.delete(ctx.info.name, preconditions, options);
  if (!result.removed) {
    sendJson(ctx.res, 200, result.object);
    return;
  }
  const { model } = store;
  const details = { name: ctx.info.name, group: model.group, kind: model.plural, uid: result.object.metadata.uid };
  sendJson(ctx.res, 200, successStatus(details));
}
