import { isStorageError, type StorageErrorDetails } from '../storage/errors';
import {
  alreadyExists,
  badRequest,
  conflict,
  expired,
  notFound,
  serviceUnavailable,
  type ErrorSubject,
  type StatusCause,
} from '../api/errors';

/**
 * Translates a storage error into the API error a client sees: the one place
 * where that happens (like Kubernetes' `Interpret*Error`). Anything that is
 * not a StorageError is rethrown unchanged.
 */
export function interpretStorageError(err: unknown, subject: ErrorSubject): never {
  if (!isStorageError(err)) throw err;
  const name = err.details.name ?? subject.name;
  const who = { ...subject, name };
  switch (err.code) {
    case 'NotFound':
      throw notFound(who);
    case 'AlreadyExists':
      throw alreadyExists(who);
    case 'Conflict':
      throw conflict(who, err.message, uniqueIndexCauses(err.details));
    case 'Invalid':
      throw badRequest(err.message);
    case 'Expired':
      throw expired(err.message);
    case 'Unavailable':
      throw serviceUnavailable(err.message, err.details.retryAfterSeconds ?? 1);
  }
}

/** The cause of a conflict on a unique index (the taken value), or none for any other conflict. */
function uniqueIndexCauses({ index, value }: StorageErrorDetails): StatusCause[] | undefined {
  if (index === undefined) return undefined;
  return [
    {
      field: index,
      reason: 'FieldValueDuplicate',
      message: `the value "${value}" is already taken in the unique index "${index}"`,
    },
  ];
}
