import { dns1123SubdomainErrors } from './dns';

/**
 * Kubernetes' rules for label keys, annotation keys and finalizers (a
 * "qualified name", `IsQualifiedName`) and for label values
 * (`IsValidLabelValue`). They return messages; callers turn them into causes
 * or selector errors.
 */

/** The longest name part of a qualified name (after the optional `prefix/`). */
export const QUALIFIED_NAME_MAX_LENGTH = 63;

/** The longest label value. */
export const LABEL_VALUE_MAX_LENGTH = 63;

const NAME_FORMAT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const NAME_PATTERN = new RegExp(`^${NAME_FORMAT}$`);
const VALUE_FORMAT = `(${NAME_FORMAT})?`;
const VALUE_PATTERN = new RegExp(`^${VALUE_FORMAT}$`);

const NAME_RULE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
  `(e.g. 'MyName', or 'my.name', or '123-abc', regex used for validation is '${NAME_FORMAT}')`;

const VALUE_RULE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', " +
  "and must start and end with an alphanumeric character (e.g. 'MyValue', or 'my_value', or '12345', " +
  `regex used for validation is '${VALUE_FORMAT}')`;

/**
 * Why `value` is not a qualified name `[<dns-subdomain ≤253>/]<name ≤63>`, as
 * messages (empty when it is one). Exactly zero or one `/`.
 * @example qualifiedNameErrors('example.com/app') // → []
 * @example qualifiedNameErrors('a/b/c') // → ["a qualified name must consist of …"]
 */
export function qualifiedNameErrors(value: string): string[] {
  const parts = value.split('/');
  if (parts.length > 2) {
    return [`a qualified name ${NAME_RULE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
  }
  const errors: string[] = [];
  const name = parts.length === 2 ? parts[1] : parts[0];
  if (parts.length === 2) {
    const prefix = parts[0];
    if (prefix.length === 0) errors.push('prefix part must be non-empty');
    else errors.push(...dns1123SubdomainErrors(prefix).map((m) => `prefix part ${m}`));
  }
  if (name.length === 0) return [...errors, 'name part must be non-empty'];
  if (name.length > QUALIFIED_NAME_MAX_LENGTH) {
    errors.push(`name part must be no more than ${QUALIFIED_NAME_MAX_LENGTH} characters`);
  }
  if (!NAME_PATTERN.test(name)) errors.push(`name part ${NAME_RULE}`);
  return errors;
}

/**
 * Why `value` is not a label value (≤63, `[A-Za-z0-9._-]`, alphanumeric at
 * both ends, or empty), as messages (empty when it is one).
 * @example labelValueErrors('-x') // → ["a valid label must be an empty string or …"]
 */
export function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > LABEL_VALUE_MAX_LENGTH) {
    errors.push(`must be no more than ${LABEL_VALUE_MAX_LENGTH} characters`);
  }
  if (!VALUE_PATTERN.test(value)) errors.push(VALUE_RULE);
  return errors;
}

/** The prefix of a qualified name (`example.com` of `example.com/app`), or undefined when it has none. */
export function qualifiedNamePrefix(value: string): string | undefined {
  const slash = value.indexOf('/');
  return slash < 0 ? undefined : value.slice(0, slash);
}
