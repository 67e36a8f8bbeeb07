import { type FieldCause, forbiddenValue, invalidValue, typeInvalid } from './causes';
import { platformKeyError } from './platform-keys';
import { labelValueErrors, qualifiedNameErrors } from './qualified-name';

/** How `validateLabels` checks a label map. */
export interface LabelValidationOptions {
  /** The field path the causes name. Default `metadata.labels`. */
  path?: string;
  /**
   * For objects a plugin declares (docs/api.md): refuse unprefixed keys and keys
   * under `svc.run` or `*.svc.run`, except those `allowedPlatformKeys` admits.
   * Default false: users may use unprefixed keys.
   */
  restrictPlatformKeys?: boolean;
  /** Keys admitted despite `restrictPlatformKeys`: exact keys, or prefixes ending in `*`. */
  allowedPlatformKeys?: readonly string[];
}

/**
 * Checks every key (`[<dns-subdomain>/]<name ≤63>`) and value (≤63,
 * `[A-Za-z0-9._-]`, alphanumeric at both ends, or empty) of a label map.
 * Causes name the map's path, `metadata.labels`, and quote the bad key or value,
 * as Kubernetes does.
 * @example validateLabels({ app: 'web' }) // → []
 * @example validateLabels({ 'a/b/c': 'x' }) // → [{field: 'metadata.labels', reason: 'FieldValueInvalid', message: 'Invalid value: "a/b/c": a qualified name …'}]
 */
export function validateLabels(labels: Record<string, unknown>, options: LabelValidationOptions = {}): FieldCause[] {
  const path = options.path ?? 'metadata.labels';
  const causes: FieldCause[] = [];
  for (const [key, value] of Object.entries(labels)) {
    for (const message of qualifiedNameErrors(key)) causes.push(invalidValue(path, key, message));
    if (options.restrictPlatformKeys) {
      const refusal = platformKeyError(key, options.allowedPlatformKeys ?? []);
      if (refusal !== undefined) causes.push(forbiddenValue(path, refusal));
    }
    if (typeof value !== 'string') {
      causes.push(typeInvalid(path, value, 'string'));
      continue;
    }
    for (const message of labelValueErrors(value)) causes.push(invalidValue(path, value, message));
  }
  return causes;
}
