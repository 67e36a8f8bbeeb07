/**
 * DNS (RFC 1123) name rules, as Kubernetes' `IsDNS1123Label` and
 * `IsDNS1123Subdomain` state them, shared by object names and the prefix of
 * label keys.
 */

/** The longest object name or DNS subdomain. */
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

const LABEL_FORMAT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const SUBDOMAIN_FORMAT = `${LABEL_FORMAT}(\\.${LABEL_FORMAT})*`;
const LABEL_PATTERN = new RegExp(`^${LABEL_FORMAT}$`);
const SUBDOMAIN_PATTERN = new RegExp(`^${SUBDOMAIN_FORMAT}$`);

/** What a valid name without dots looks like (the rule for every object name but a Model's). */
export const DNS1123_NAME_MESSAGE =
  "a lowercase RFC 1123 name must consist of lower case alphanumeric characters or '-', " +
  "and must start and end with an alphanumeric character (e.g. 'my-name', or '123-abc', " +
  `regex used for validation is '${LABEL_FORMAT}')`;

/** What a valid DNS subdomain looks like (a Model's `<plural>.<group>` name, a label key's prefix). */
export const DNS1123_SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', " +
  "and must start and end with an alphanumeric character (e.g. 'example.com', " +
  `regex used for validation is '${SUBDOMAIN_FORMAT}')`;

/** Whether `value` is `[a-z0-9-]` with alphanumeric ends (length is checked separately). */
export const isDns1123Name = (value: string): boolean => LABEL_PATTERN.test(value);

/** Whether `value` is dot-separated DNS names: no `..`, no leading or trailing dot (length is checked separately). */
export const isDns1123Subdomain = (value: string): boolean => SUBDOMAIN_PATTERN.test(value);

/**
 * Why `value` is not a DNS subdomain, as messages (empty when it is one).
 * @example dns1123SubdomainErrors('Example.com') // → [DNS1123_SUBDOMAIN_MESSAGE]
 */
export function dns1123SubdomainErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > DNS1123_SUBDOMAIN_MAX_LENGTH) {
    errors.push(`must be no more than ${DNS1123_SUBDOMAIN_MAX_LENGTH} characters`);
  }
  if (!isDns1123Subdomain(value)) errors.push(DNS1123_SUBDOMAIN_MESSAGE);
  return errors;
}
