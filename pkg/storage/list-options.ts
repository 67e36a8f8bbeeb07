import { StorageError } from './errors';
import type { IndexSpec } from './indexes';
import type { ResourceType } from './interface';
import type { SortKey } from './query';

/**
 * The checks every backend makes of `Storage.list` options, with one set of messages; each is Invalid (a 400 or 422
 * to the client) when the option is wrong.
 */

/** A non-negative integer option (`limit`, `offset`), or undefined when absent. */
export function countOption(value: number | undefined, option: 'limit' | 'offset'): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new StorageError('Invalid', `${option} must be a non-negative integer, not ${String(value)}`);
  }
  return value;
}

/** The direction a sort key asks for, or its index's own order when it names none (a caller without types may). */
export function sortDirection(type: ResourceType, key: SortKey, spec: Pick<IndexSpec, 'order'>): 'asc' | 'desc' {
  const direction = (key.direction as string | undefined) ?? (spec.order === 'DESC' ? 'desc' : 'asc');
  if (direction !== 'asc' && direction !== 'desc') {
    throw new StorageError('Invalid', `sort: the direction of "${key.index}" must be asc or desc`, {
      type,
      index: key.index,
    });
  }
  return direction;
}

/** The error for a field selector or sort key (`usedIn`) naming no index of the type; it lists the indexes. */
export function unknownIndex(type: ResourceType, index: string, usedIn: string, indexes: readonly string[]) {
  return new StorageError(
    'Invalid',
    `${usedIn}: "${index}" is not an index of ${type}; its indexes are: ${indexes.join(', ')}`,
    {
      type,
      index,
    },
  );
}
