/**
 * Freezes a JSON value and everything inside it, so that an object shared by
 * every watcher and by the store cannot be changed by any of them. Parts that
 * are already frozen are taken as frozen all the way down (the store only ever
 * freezes whole trees), so freezing a new object that reuses frozen parts of an
 * old one costs only its new parts.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const member of Object.values(value)) deepFreeze(member);
  return value;
}
