/** The UI permission that stands for every other one (the super administrator's). */
export const ALL = '*';

/**
 * Whether the caller's UI permissions grant at least one of `required`.
 * An empty `required` needs nothing; `*` grants everything.
 */
export function grants(granted: readonly string[], required: readonly string[] | undefined): boolean {
  if (!required || required.length === 0) return true;
  if (granted.includes(ALL)) return true;
  return required.some((permission) => granted.includes(permission));
}
