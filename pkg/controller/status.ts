import type { ApiObject } from '../api/object';
import type { ApiClient } from '../client/api-client';
import type { ResourceRef } from '../client/resource';
import type { RequestOptions } from '../client/types';
import { copyOf, type DeepReadonly } from '../util/deep-freeze';
import { jsonEqual } from '../util/json-equal';

/** What `updateStatus` did: the object as it now is, and whether it wrote. */
export interface StatusUpdate<T extends ApiObject> {
  changed: boolean;
  object: T;
}

/**
 * Writes an object's `status` through the status subresource, only when it
 * differs from the object's current one (so reconciles that converge write
 * nothing). The write carries the object's `resourceVersion`: when the object
 * changed since it was read, it fails with Conflict and the reconcile is
 * retried against the new state. The object given is not modified.
 * @example
 * await updateStatus(client, PERSONS, persons.get(name)!, { phase: 'Ready' });
 */
export async function updateStatus<T extends ApiObject>(
  client: ApiClient,
  res: ResourceRef,
  object: DeepReadonly<T> | T,
  status: T['status'],
  options: RequestOptions = {},
): Promise<StatusUpdate<T>> {
  const copy = copyOf<T>(object);
  if (jsonEqual(copy.status, status)) return { changed: false, object: copy };
  copy.status = status;
  return { changed: true, object: await client.updateStatus<T>(res, copy, options) };
}
