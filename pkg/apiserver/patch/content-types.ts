import { unsupportedMediaType } from '../../api/errors';

/** RFC 7386 JSON merge patch. */
export const MERGE_PATCH = 'application/merge-patch+json';
/** Kubernetes' strategic merge patch; applied here as a plain merge patch (see `applyPatch`). */
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
/** RFC 6902 JSON patch. */
export const JSON_PATCH = 'application/json-patch+json';
/** Server-side apply; the body is YAML or JSON. */
export const APPLY_PATCH = 'application/apply-patch+yaml';

/** Every patch media type PATCH accepts, in the order a 415 lists them. */
export const PATCH_TYPES: readonly string[] = [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, APPLY_PATCH];

/** How a patch is applied: RFC 6902 operations, or a merge of an object (merge, strategic merge, apply). */
export type PatchKind = 'json' | 'merge' | 'apply';

/**
 * The kind of patch a `Content-Type` names (parameters and case ignored).
 * @throws StatusError 415 naming the supported types for any other media type
 * @example patchKind('application/merge-patch+json; charset=utf-8') === 'merge'
 */
export function patchKind(contentType: string): PatchKind {
  const type = contentType.split(';')[0].trim().toLowerCase();
  switch (type) {
    case JSON_PATCH:
      return 'json';
    case MERGE_PATCH:
    case STRATEGIC_MERGE_PATCH:
      return 'merge';
    case APPLY_PATCH:
      return 'apply';
    default:
      throw unsupportedMediaType(type, [...PATCH_TYPES]);
  }
}
