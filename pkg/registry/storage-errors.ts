import { isStorageError } from '../storage/errors';
import {
  alreadyExists,
  badRequest,
  conflict,
  expired,
  notFound,
  serviceUnavailable,
  type ErrorSubject,
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
    case 'Conflict': {
      const { index, value } = err.details;
      const causes =
        index !== undefined
          ? [
              {
                field: index,
                reason: 'FieldValueDuplicate',
                message: `the value "${value}" is already taken in the unique index "${index}"`,
              },
            ]
          : undefined;
      throw conflict(who, err.message, causes);
    }
    case 'Invalid':
      throw badRequest(err.message);
    case 'Expired':
      throw expired(err.message);
    case 'Unavailable':
      throw serviceUnavailable(err.message, err.details.retryAfterSeconds ?? 1);
  }
}
