import { badRequest } from './errors';

/** An API group and version, e.g. `{group: 'example.com', version: 'v1alpha1'}`; the core group is `''`. */
export interface GroupVersion {
  group: string;
  version: string;
}

/**
 * Splits an `apiVersion` into group and version, as Kubernetes'
 * `ParseGroupVersion` does: `example.com/v1alpha1` → `{group: 'example.com',
 * version: 'v1alpha1'}`, `v1alpha1` → `{group: '', version: 'v1alpha1'}` (the
 * core group). Stricter than Kubernetes: an empty string, an empty part
 * (`/v1`, `example.com/`) or a second `/` throws a 400 `BadRequest`.
 */
export function parseApiVersion(apiVersion: string): GroupVersion {
  const groupVersion = splitApiVersion(apiVersion);
  if (groupVersion === undefined) {
    throw badRequest(`invalid apiVersion ${JSON.stringify(apiVersion)}: expected <version> or <group>/<version>`);
  }
  return groupVersion;
}

/** `parseApiVersion` for a caller with its own answer to a malformed `apiVersion`: undefined instead of a 400. */
export function splitApiVersion(apiVersion: string): GroupVersion | undefined {
  const parts = apiVersion.split('/');
  if (parts.length > 2 || parts.some((p) => p === '')) return undefined;
  return parts.length === 1 ? { group: '', version: parts[0] } : { group: parts[0], version: parts[1] };
}

/**
 * The `apiVersion` of a group and version: `example.com/v1alpha1`, or the bare
 * version for the core group (`v1alpha1`).
 */
export function formatApiVersion(group: string, version: string): string {
  return group ? `${group}/${version}` : version;
}
