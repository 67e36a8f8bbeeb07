import type { ApiObject } from '../api/object';
import { apiVersionOf, type ResourceRef } from '../client/resource';
import type { DeepReadonly } from '../util/deep-freeze';

/** Kubernetes' owner reference, as objects may carry it in `metadata.ownerReferences`. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid?: string;
  controller?: boolean;
}

/**
 * The names of an object's owners of the given resource type: references
 * with its `apiVersion` and, when `owner.kind` is known, its kind.
 * @example ownerNames(pet, PERSONS) // ['ada'] for ownerReferences [{apiVersion: 'example.com/v1alpha1', kind: 'Person', name: 'ada'}]
 */
export function ownerNames(object: DeepReadonly<ApiObject>, owner: ResourceRef): string[] {
  const refs = (object.metadata as { ownerReferences?: readonly OwnerReference[] }).ownerReferences ?? [];
  const apiVersion = apiVersionOf(owner);
  return refs
    .filter((r) => r.apiVersion === apiVersion && (owner.kind === undefined || r.kind === owner.kind))
    .map((r) => r.name);
}
