import { type FieldCause, duplicateValue, invalidValue, typeInvalid } from './causes';
import { qualifiedNameErrors } from './qualified-name';

/**
 * Checks a finalizer list: each entry is a qualified name (the label key
 * rules, e.g. `example.com/cleanup`) and appears once. Causes name the entry,
 * `metadata.finalizers[1]`; a repeated one is `FieldValueDuplicate`, the
 * reason Kubernetes gives.
 * @example validateFinalizers(['example.com/a', 'example.com/a']) // → [{field: 'metadata.finalizers[1]', reason: 'FieldValueDuplicate', …}]
 */
export function validateFinalizers(finalizers: readonly unknown[], path = 'metadata.finalizers'): FieldCause[] {
  const causes: FieldCause[] = [];
  const seen = new Set<string>();
  finalizers.forEach((finalizer, i) => {
    const field = `${path}[${i}]`;
    if (typeof finalizer !== 'string') {
      causes.push(typeInvalid(field, finalizer, 'string'));
      return;
    }
    for (const message of qualifiedNameErrors(finalizer)) causes.push(invalidValue(field, finalizer, message));
    if (seen.has(finalizer)) causes.push(duplicateValue(field, finalizer));
    seen.add(finalizer);
  });
  return causes;
}
