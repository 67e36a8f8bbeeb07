import { type FieldCause, invalidValue, requiredValue, tooLong } from './causes';
import {
  DNS1123_NAME_MESSAGE,
  DNS1123_SUBDOMAIN_MAX_LENGTH,
  DNS1123_SUBDOMAIN_MESSAGE,
  isDns1123Name,
  isDns1123Subdomain,
} from './dns';

/** How `validateName` and `validateGenerateName` check a name. */
export interface NameValidationOptions {
  /**
   * Allow dots between DNS labels (no `..`, no leading or trailing dot): a
   * Model's name, `<plural>.<group>`. Default false: `[a-z0-9-]` only.
   */
  dns1123Subdomain?: boolean;
  /** The field path the causes name. Default `metadata.name` (`metadata.generateName` for a prefix). */
  path?: string;
}

/** The longest object name (docs/api.md). */
export const NAME_MAX_LENGTH = DNS1123_SUBDOMAIN_MAX_LENGTH;

/** How many characters `generateName` appends (pkg/storage/objects.ts, all alphanumeric). */
export const GENERATED_SUFFIX_LENGTH = 5;

/** The longest generated name, as Kubernetes' name generator makes them. */
export const GENERATED_NAME_MAX_LENGTH = 63;

/**
 * How much of a `generateName` prefix a generated name keeps: a longer prefix is
 * cut to its first 58 characters before the suffix is added (Kubernetes' `SimpleNameGenerator`).
 */
export const GENERATE_NAME_PREFIX_KEPT = GENERATED_NAME_MAX_LENGTH - GENERATED_SUFFIX_LENGTH;

const followsRule = (value: string, subdomain: boolean) =>
  subdomain ? isDns1123Subdomain(value) : isDns1123Name(value);

const ruleMessage = (subdomain: boolean) => (subdomain ? DNS1123_SUBDOMAIN_MESSAGE : DNS1123_NAME_MESSAGE);

/**
 * Checks an object name: ≤253 characters, `[a-z0-9-]`, alphanumeric at both
 * ends (with `dns1123Subdomain`, also dots between such labels). Returns every
 * failing rule: an empty name is `FieldValueRequired`, a long one
 * `FieldValueTooLong`, a malformed one `FieldValueInvalid`.
 * @example validateName('my-name') // → []
 * @example validateName('persons.example.com', { dns1123Subdomain: true }) // → []
 * @example validateName('My_Name') // → [{field: 'metadata.name', reason: 'FieldValueInvalid', message: 'Invalid value: "My_Name": a lowercase RFC 1123 name must …'}]
 */
export function validateName(name: string, options: NameValidationOptions = {}): FieldCause[] {
  const path = options.path ?? 'metadata.name';
  const subdomain = options.dns1123Subdomain ?? false;
  if (name.length === 0) return [requiredValue(path, 'name is required')];
  const causes: FieldCause[] = [];
  if (name.length > NAME_MAX_LENGTH) causes.push(tooLong(path, NAME_MAX_LENGTH, 'characters'));
  if (!followsRule(name, subdomain)) causes.push(invalidValue(path, name, ruleMessage(subdomain)));
  return causes;
}

/**
 * Checks a `generateName` prefix: it must make a valid name once the server
 * appends 5 alphanumeric characters, so it may end with `-` (or `.` with
 * `dns1123Subdomain`). Like a name it is at most 253 characters; a prefix
 * longer than GENERATE_NAME_PREFIX_KEPT is fine, only its start is used (as
 * Kubernetes does). The empty prefix passes (the name is then the 5 characters
 * alone); `validateObjectMeta` treats an empty `generateName` as absent.
 * @example validateGenerateName('person-') // → []
 * @example validateGenerateName('-person') // → [{field: 'metadata.generateName', reason: 'FieldValueInvalid', …}]
 */
export function validateGenerateName(prefix: string, options: NameValidationOptions = {}): FieldCause[] {
  const path = options.path ?? 'metadata.generateName';
  const subdomain = options.dns1123Subdomain ?? false;
  if (prefix.length === 0) return [];
  const causes: FieldCause[] = [];
  if (prefix.length > NAME_MAX_LENGTH) causes.push(tooLong(path, NAME_MAX_LENGTH, 'characters'));
  // Any alphanumeric character stands for the generated suffix: only its first one matters to the rule.
  if (!followsRule(`${prefix}a`, subdomain)) {
    causes.push(
      invalidValue(
        path,
        prefix,
        `the prefix plus ${GENERATED_SUFFIX_LENGTH} generated characters must be a valid name: ${ruleMessage(subdomain)}`,
      ),
    );
  }
  return causes;
}
