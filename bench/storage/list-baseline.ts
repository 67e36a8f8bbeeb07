import type Redis from 'ioredis';
import type { ApiObject } from '../../pkg/api/object';
import type { LabelRequirement } from '../../pkg/storage';
import type { TypeKeys } from '../../pkg/storage/redis';

/** One page as names, with the number of objects that matched. */
export interface NamedPage {
  names: string[];
  total: number;
}

/**
 * The list baseline: what a store without indexes does. It loads every object
 * of the type from Redis in one command (HVALS of the objects hash, see
 * pkg/storage/redis/keys.ts), parses each, keeps those that hold the label,
 * and picks the first page in the order `Storage.list` uses by default.
 */
export async function baselineFirstPage(
  redis: Redis,
  keys: TypeKeys,
  filter: LabelRequirement | undefined,
  size: number,
): Promise<NamedPage> {
  const objects = (await redis.hvals(keys.objects)).map((json) => JSON.parse(json) as ApiObject);
  return firstPage(objects, filter, size);
}

/**
 * The first `size` objects that meet `filter` (a label equality: `op: 'in'`),
 * in `Storage.list`'s default order: `creationTimestamp` descending, then
 * `metadata.name` ascending; and how many met it. One pass that keeps the best
 * `size` so far (a partial sort: cheaper than sorting every match, so that the
 * baseline is not slowed by a sort it does not need).
 */
export function firstPage(
  objects: readonly ApiObject[],
  filter: LabelRequirement | undefined,
  size: number,
): NamedPage {
  const best: ApiObject[] = [];
  let total = 0;
  for (const object of objects) {
    if (filter !== undefined && !holdsLabel(object, filter)) continue;
    total++;
    if (best.length === size && (size === 0 || newestFirst(object, best[size - 1]) >= 0)) continue;
    let at = best.length;
    while (at > 0 && newestFirst(object, best[at - 1]) < 0) at--;
    best.splice(at, 0, object);
    if (best.length > size) best.pop();
  }
  return { names: best.map((o) => o.metadata.name ?? ''), total };
}

/** Whether the object's label `filter.key` has one of `filter.values`. */
function holdsLabel(object: ApiObject, filter: LabelRequirement): boolean {
  const value = object.metadata.labels?.[filter.key];
  return value !== undefined && filter.values.includes(value);
}

/** `creationTimestamp` descending (RFC 3339 UTC strings sort as times), then name ascending. */
function newestFirst(a: ApiObject, b: ApiObject): number {
  const ta = a.metadata.creationTimestamp ?? '';
  const tb = b.metadata.creationTimestamp ?? '';
  if (ta !== tb) return ta < tb ? 1 : -1;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}
