import { badRequest } from '../../api/errors';
import { patchKind } from './content-types';
import { assertJsonFieldCount, assertWithinLimits, MAX_BODY_FIELDS } from '../../util/json-limits';
import { decodeJsonPatch, type JsonPatchOperation } from './json-patch';
import { parseYamlDocument } from '../../util/yaml-document';

/** A decoded, checked patch: JSON patch operations, or the object a merge patch or an apply merges in. */
export type Patch = JsonPatchOperation[] | Record<string, unknown>;

/**
 * Decodes a PATCH body by its media type: JSON for merge, strategic merge and
 * JSON patch; YAML or JSON for apply. Checks the document's shape: an array of
 * well-formed operations for JSON patch, an object for the others.
 *
 * @throws StatusError 415 for a media type that is no patch type; 400 for an
 *   empty or malformed body, a merge patch that is not an object, a malformed
 *   operation, or a document beyond the limits of `assertWithinLimits`; 413 for one of more than `MAX_BODY_FIELDS`
 *   fields
 * @example decodePatch('application/merge-patch+json', '{"spec":{"age":3}}') → {spec: {age: 3}}
 */
export function decodePatch(contentType: string, body: string | Buffer): Patch {
  const kind = patchKind(contentType);
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.trim() === '') throw badRequest('the patch body is empty');
  const document = kind === 'apply' ? parseYamlDocument(text, 'the patch', MAX_BODY_FIELDS) : parseJson(text);
  if (kind === 'json') return decodeJsonPatch(document);
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw badRequest(
      kind === 'apply' ? 'an applied configuration must be an object' : 'a merge patch must be a JSON object',
    );
  }
  return document as Record<string, unknown>;
}

function parseJson(text: string): unknown {
  assertJsonFieldCount(text);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (err) {
    throw badRequest(`the patch is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  assertWithinLimits(document);
  return document;
}
