/**
 * PATCH bodies: decode one by its media type, then apply it to the current
 * object (merge patch, strategic merge as merge, JSON patch, server-side apply).
 */
export { applyPatch, type PatchSubject } from './apply-patch';
export { decodePatch, type Patch } from './decode';
export {
  APPLY_PATCH,
  JSON_PATCH,
  MERGE_PATCH,
  PATCH_TYPES,
  STRATEGIC_MERGE_PATCH,
  patchKind,
  type PatchKind,
} from './content-types';
export { applyJsonPatch, decodeJsonPatch, JsonPatchFailure, type JsonPatchOperation } from './json-patch';
export { mergePatch } from '../../util/merge-patch';
export { parsePointer } from './json-pointer';
