import { formatApiVersion } from '../api/group-version';
/**
 * How the client names a resource type: its group, version and plural, the
 * three parts of its path (docs/api.md). The core group `""` is served under
 * `/api/<version>`, every other group under `/apis/<group>/<version>`.
 */

/**
 * A resource type, e.g. `{group: 'example.com', version: 'v1alpha1', plural: 'persons', kind: 'Person'}`.
 * `kind` is optional; helpers that match objects by kind (owner references) use it when given.
 */
export interface ResourceRef {
  group: string;
  version: string;
  plural: string;
  kind?: string;
}

/** `/apis/example.com/v1alpha1/persons`, or `/api/v1alpha1/roles` for the core group. */
export function collectionPath(res: ResourceRef): string {
  const base = res.group === '' ? `/api/${res.version}` : `/apis/${res.group}/${res.version}`;
  return `${base}/${res.plural}`;
}

/** `/apis/example.com/v1alpha1/persons/ada`; a subresource is appended: `…/ada/status`. */
export function objectPath(res: ResourceRef, name: string, subresource?: string): string {
  if (name === '') throw new Error(`an object of ${describeResource(res)} needs a name`);
  const path = `${collectionPath(res)}/${encodeURIComponent(name)}`;
  return subresource ? `${path}/${subresource}` : path;
}

/** The `apiVersion` objects of the resource carry: `example.com/v1alpha1`, or `v1alpha1` for the core group. */
export const apiVersionOf = (res: Pick<ResourceRef, 'group' | 'version'>): string =>
  formatApiVersion(res.group, res.version);

/** `persons.example.com` (or `roles` for the core group): how logs and messages name a resource type. */
export const describeResource = (res: Pick<ResourceRef, 'group' | 'plural'>): string =>
  res.group === '' ? res.plural : `${res.plural}.${res.group}`;
