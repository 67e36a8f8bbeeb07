import type { StatusCause } from '../../api/errors';

/**
 * How the apiserver reports pruned fields: as `Warning` headers by default, or,
 * with `?fieldValidation=Strict`, as the causes of a 422 (docs/api.md).
 * Kubernetes answers Strict with a 400; this platform's contract says 422.
 */

/** The text Kubernetes uses for one unknown field: `unknown field "spec.foo"`. */
export const unknownFieldMessage = (path: string): string => `unknown field "${path}"`;

/** At most this many warnings per response by default; the rest are summed up in one more. */
export const MAX_UNKNOWN_FIELD_WARNINGS = 100;

/**
 * One `Warning` header value per unknown field, in RFC 7234's form with
 * Kubernetes' text: `299 - "unknown field \"spec.foo\""`. Beyond `max` fields a
 * last warning says how many more there were, so that a body with thousands of
 * unknown fields cannot blow up the response headers. Values are ready for
 * Node's `setHeader`: non-ASCII text is written as its UTF-8 bytes (what
 * Kubernetes sends) and control characters as `?`.
 *
 * @example res.setHeader('Warning', unknownFieldWarnings(unknownFields))
 */
export function unknownFieldWarnings(paths: readonly string[], max = MAX_UNKNOWN_FIELD_WARNINGS): string[] {
  const shown = paths.slice(0, max).map((p) => warningHeader(unknownFieldMessage(p)));
  if (paths.length > max) shown.push(warningHeader(`and ${paths.length - max} more unknown fields`));
  return shown;
}

/**
 * The causes of the 422 `?fieldValidation=Strict` answers with: one
 * `FieldValueInvalid` per unknown field.
 *
 * @example throw invalid({ kind: 'Person', name }, unknownFieldCauses(unknownFields))
 */
export function unknownFieldCauses(paths: readonly string[]): StatusCause[] {
  return paths.map((field) => ({ field, reason: 'FieldValueInvalid', message: unknownFieldMessage(field) }));
}

/** A `299` warning with `text` as an RFC 7230 quoted-string. */
function warningHeader(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must go
  const printable = text.replace(/[\u0000-\u001f\u007f]/g, '?').replace(/[\\"]/g, (c) => `\\${c}`);
  return `299 - "${Buffer.from(printable, 'utf8').toString('latin1')}"`;
}
