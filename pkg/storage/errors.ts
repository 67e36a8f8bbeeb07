/**
 * Storage errors carry a code; the API layer translates them to HTTP Status
 * errors once (pkg/registry), the way Kubernetes' `Interpret*Error` does.
 */
export type StorageErrorCode =
  /** The object does not exist (or the type is unknown). */
  | 'NotFound'
  /** The name is taken. */
  | 'AlreadyExists'
  /** A precondition failed, or a unique index value is taken (`index`, `value` say which). */
  | 'Conflict'
  /** The request cannot be answered as asked: an unknown index in a query, a bad continue token. */
  | 'Invalid'
  /** The requested revision is older than the retained change log, or a watcher fell behind. */
  | 'Expired'
  /** The backend cannot be reached, or an index the query needs is still being built. */
  | 'Unavailable';

/** Details a StorageError may carry, for the API layer's message and causes. */
export interface StorageErrorDetails {
  type?: string;
  name?: string;
  /** For a unique-index Conflict, or an Invalid/Unavailable about an index. */
  index?: string;
  value?: string;
  /** For Unavailable: seconds after which a retry may succeed. */
  retryAfterSeconds?: number;
}

export class StorageError extends Error {
  override readonly name = 'StorageError';

  constructor(
    readonly code: StorageErrorCode,
    message: string,
    readonly details: StorageErrorDetails = {},
  ) {
    super(message);
  }
}

export const isStorageError = (err: unknown, code?: StorageErrorCode): err is StorageError =>
  err instanceof StorageError && (code === undefined || err.code === code);

export const notFound = (type: string, name: string) =>
  new StorageError('NotFound', `${type} "${name}" not found`, { type, name });

export const alreadyExists = (type: string, name: string) =>
  new StorageError('AlreadyExists', `${type} "${name}" already exists`, { type, name });

/** The optimistic-lock failure, in Kubernetes' words. */
export const staleConflict = (type: string, name: string) =>
  new StorageError(
    'Conflict',
    `Operation cannot be fulfilled on ${type} "${name}": the object has been modified; ` +
      'please apply your changes to the latest version and try again',
    { type, name },
  );

export const uniqueConflict = (type: string, name: string, index: string, value: string) =>
  new StorageError('Conflict', `${type} "${name}": index "${index}" already holds the value "${value}"`, {
    type,
    name,
    index,
    value,
  });

export const expired = (message: string) => new StorageError('Expired', message);

export const unavailable = (message: string, retryAfterSeconds = 1) =>
  new StorageError('Unavailable', message, { retryAfterSeconds });
