import type { ApiObject } from '../api/object';
import { StorageError } from './errors';
import type { ResourceType } from './interface';

/** Throws Invalid unless `object` has metadata (what create is given and what a mutation returns). */
export function requireMetadata(type: ResourceType, object: ApiObject | undefined, what: string): ApiObject {
  if (typeof object?.metadata !== 'object' || object.metadata === null) {
    throw new StorageError('Invalid', `${what} returned no object with metadata`, { type });
  }
  return object;
}

/**
 * The name a new object asks for (`given`) or the prefix to generate one from;
 * Invalid when it has no metadata or neither.
 */
export function requestedName(type: ResourceType, object: ApiObject): { given?: string; prefix: string } {
  if (typeof object?.metadata !== 'object' || object.metadata === null) {
    throw new StorageError('Invalid', `a ${type} object needs metadata`, { type });
  }
  const { name: given, generateName: prefix } = object.metadata;
  if (!given && !prefix) {
    throw new StorageError('Invalid', `a ${type} object needs metadata.name or metadata.generateName`, { type });
  }
  return { given: given || undefined, prefix: prefix ?? '' };
}
