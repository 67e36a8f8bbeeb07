import { type FieldCause, invalidValue, tooLong, typeInvalid } from './causes';
import { qualifiedNameErrors } from './qualified-name';

/** The most bytes (UTF-8) all annotation keys and values of one object may hold together, as in Kubernetes. */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/**
 * Checks an annotation map: every key follows the label key rules (compared
 * in lower case, as Kubernetes does, so `Example.com/Note` passes), values are
 * strings of any content, and keys plus values total at most 256 KiB.
 * @example validateAnnotations({ 'example.com/note': 'any text' }) // → []
 */
export function validateAnnotations(annotations: Record<string, unknown>, path = 'metadata.annotations'): FieldCause[] {
  const causes: FieldCause[] = [];
  let size = 0;
  for (const [key, value] of Object.entries(annotations)) {
    for (const message of qualifiedNameErrors(key.toLowerCase())) causes.push(invalidValue(path, key, message));
    size += Buffer.byteLength(key, 'utf8');
    if (typeof value === 'string') size += Buffer.byteLength(value, 'utf8');
    else causes.push(typeInvalid(path, value, 'string'));
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) causes.push(tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT, 'bytes'));
  return causes;
}
