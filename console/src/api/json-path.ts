/** A place in an object: property names and list indexes, e.g. `['spec', 'tags', 0]`. */
export type JsonPath = (string | number)[];

/** The path as the server's causes name fields: `spec.tags[0]`, `spec.otherPerson.spec.name`. */
export function pathText(path: JsonPath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** The value at `path`, or undefined. */
export function getAt(value: unknown, path: JsonPath): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/**
 * A copy of `value` with `path` set (the objects and lists on the way copied,
 * the rest shared). `undefined` removes a property; in a list it removes the item.
 */
export function setAt(value: unknown, path: JsonPath, next: unknown): unknown {
  if (path.length === 0) return next;
  const [key, ...rest] = path;
  if (typeof key === 'number') {
    const list = Array.isArray(value) ? [...(value as unknown[])] : [];
    const item = setAt(list[key], rest, next);
    if (item === undefined && rest.length === 0) list.splice(key, 1);
    else list[key] = item;
    return list;
  }
  const object = value !== null && typeof value === 'object' ? { ...(value as Record<string, unknown>) } : {};
  const child = setAt(object[key], rest, next);
  if (child === undefined) delete object[key];
  else object[key] = child;
  return object;
}
