import { invalid, type ErrorSubject } from '../../api/errors';
import { patchKind } from './content-types';
import { decodePatch, type Patch } from './decode';
import { applyJsonPatch, decodeJsonPatch, JsonPatchFailure } from './json-patch';
import { mergePatch } from '../../util/merge-patch';
import { isPlainObject } from '../../api/plain-object';

/** Who a 422 is about, e.g. `{kind: 'Person', name: 'ada'}`; taken from `current` when not given. */
export type PatchSubject = ErrorSubject & { kind?: string };

/**
 * Applies a PATCH body to the current object and returns the patched object;
 * `current` and `patch` are not changed and the result shares nothing with them.
 *
 * - `application/merge-patch+json`: RFC 7386.
 * - `application/strategic-merge-patch+json`: applied as a merge patch (docs/api.md);
 *   its `$patch`/`$setElementOrder` directives are not interpreted, so lists are replaced whole.
 * - `application/json-patch+json`: RFC 6902, all operations or none.
 * - `application/apply-patch+yaml`: server-side apply, simplified: the applied
 *   configuration is merged into the current object as a merge patch (no field
 *   managers; `null` removes a field). Creating the object when it does not
 *   exist is the handler's job, with the `decodePatch` result.
 *
 * @param patch the raw body (string or Buffer), or what `decodePatch` returned for it
 * @throws StatusError 415 for another media type; 400 for a malformed patch;
 *   422 `Invalid` when a JSON patch operation fails (a `test` that does not hold,
 *   a path that does not exist), with a cause naming the operation's index and path,
 *   or when the result is not an object
 * @example applyPatch('application/merge-patch+json', person, '{"spec":{"age":37}}')
 */
export function applyPatch(
  contentType: string,
  current: unknown,
  patch: Patch | string | Buffer,
  subject?: PatchSubject,
): unknown {
  const kind = patchKind(contentType);
  const decoded = typeof patch === 'string' || Buffer.isBuffer(patch) ? decodePatch(contentType, patch) : patch;
  const who = subject ?? subjectOf(current);
  if (kind !== 'json') return mergePatch(current, decoded);
  let result: unknown;
  try {
    result = applyJsonPatch(current, decodeJsonPatch(decoded));
  } catch (err) {
    if (err instanceof JsonPatchFailure) throw invalid(who, [err.statusCause]);
    throw err;
  }
  if (!isPlainObject(result)) {
    throw invalid(who, [{ reason: 'FieldValueInvalid', message: 'the patched document must be a JSON object' }]);
  }
  return result;
}

/** `{kind, name}` of an object, for messages such as `Person "ada" is invalid: …`. */
function subjectOf(current: unknown): PatchSubject {
  if (typeof current !== 'object' || current === null) return {};
  const { kind, metadata } = current as { kind?: unknown; metadata?: { name?: unknown } };
  const subject: PatchSubject = {};
  if (typeof kind === 'string') subject.kind = kind;
  if (typeof metadata?.name === 'string') subject.name = metadata.name;
  return subject;
}
