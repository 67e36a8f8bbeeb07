import type { ApiObject } from '../../pkg/api/object';
import type { ApiClient, ResourceRef } from '../../pkg/client';
import {
  TerminalError,
  type ReadonlyCache,
  type ReconcileContext,
  type Reconciler,
  type Request,
} from '../../pkg/controller';
import { isCollectable } from './collectable';

/**
 * Removes the objects of one resource that are marked for deletion and hold
 * no finalizers. It reads the object from the informer's cache and removes it
 * with a DELETE conditional on the `resourceVersion` it saw (docs/api.md), so it
 * never removes an object that changed after it looked. The runtime's
 * contract does the rest: a 409 (the object changed) is thrown, and the key
 * is retried with backoff against the then fresher cache; a 404 (already
 * gone) means done.
 * @example
 * controller('gc/persons.example.com', manager).for(PERSONS)
 *   .complete(new GarbageCollectReconciler(manager.client, PERSONS, manager.cacheFor(PERSONS)));
 */
export class GarbageCollectReconciler implements Reconciler {
  constructor(
    private readonly client: ApiClient,
    private readonly resource: ResourceRef,
    private readonly objects: ReadonlyCache<ApiObject>,
  ) {}

  async reconcile({ name }: Request, { signal, log }: ReconcileContext): Promise<void> {
    const object = this.objects.get(name);
    if (!object || !isCollectable(object)) return;
    const { resourceVersion } = object.metadata;
    // Without a version to hold it to, the DELETE would be unconditional: never send that.
    if (!resourceVersion)
      throw new TerminalError(`"${name}" has no metadata.resourceVersion; not removing it unconditionally`);
    const result = await this.client.delete(this.resource, name, { preconditions: { resourceVersion }, signal });
    if (result.removed) log.debug({ resourceVersion }, 'removed');
    else log.info({ resourceVersion }, 'the server kept the object (finalizers); waiting for its next change');
  }
}
