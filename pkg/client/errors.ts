import type { Status, StatusReason } from '../api/errors';

/**
 * The client's errors. Every non-2xx answer is an `ApiError` carrying the
 * server's `Status` (docs/api.md); a request that never got an answer is a
 * `NetworkError`, which is always worth retrying.
 */

/** A non-2xx answer: the server's `Status`, e.g. `{code: 404, reason: 'NotFound', message: 'persons.example.com "ada" not found'}`. */
export class ApiError extends Error {
  override readonly name: string = 'ApiError';

  constructor(readonly status: Status) {
    super(status.message ?? `the server answered ${status.code}${status.reason ? ` ${status.reason}` : ''}`);
  }

  /** The HTTP status code. */
  get code(): number {
    return this.status.code;
  }

  /** The Status `reason`, e.g. `Conflict`; undefined when the server gave none. */
  get reason(): StatusReason | undefined {
    return this.status.reason;
  }
}

/**
 * 410 Expired: the `resourceVersion` a watch or list asked for is older than
 * the server keeps. A watch reports it as an `ERROR` event; the cure is a fresh list.
 */
export class ExpiredError extends ApiError {
  override readonly name = 'ExpiredError';
}

/**
 * No answer: the connection was refused or dropped, the request timed out,
 * or a watch stream broke off or carried something unreadable. Retrying is
 * always safe for reads; a write may or may not have happened.
 */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  /** Always true: a network failure is worth retrying (with backoff). */
  readonly retryable = true;
  /** The URL asked for, when the failure is a request's (its scheme tells an https:// port reached over http://). */
  readonly url?: string;

  constructor(message: string, options?: { cause?: unknown; url?: string }) {
    super(message, options);
    this.url = options?.url;
  }
}

/** The error for a non-2xx `Status`: `ExpiredError` for a 410, `ApiError` otherwise. */
export function errorFromStatus(status: Status): ApiError {
  return status.code === 410 ? new ExpiredError(status) : new ApiError(status);
}

const hasReason = (err: unknown, code: number, reason: StatusReason): boolean =>
  err instanceof ApiError && (err.reason === reason || (err.reason === undefined && err.code === code));

/** 404 NotFound: the object (or the route) does not exist. */
export { isNotFound } from '../api/errors';

/** 409 Conflict: a stale `resourceVersion`/`version`, a failed precondition or a taken unique index value. */
export const isConflict = (err: unknown): boolean => hasReason(err, 409, 'Conflict');

/** 409 AlreadyExists: a create of a name that is taken. */
export const isAlreadyExists = (err: unknown): boolean => hasReason(err, 409, 'AlreadyExists');

/** 410 Expired (or Gone): a `resourceVersion` too old to watch from; list again. */
export const isExpired = (err: unknown): boolean =>
  err instanceof ExpiredError || (err instanceof ApiError && (err.code === 410 || err.reason === 'Expired'));

/**
 * 504 with the cause `ResourceVersionTooLarge`: a watch asked for a revision the server has not reached,
 * which a client of another store's history holds (the server's data was reset); list again.
 */
export const isResourceVersionTooLarge = (err: unknown): boolean =>
  err instanceof ApiError &&
  err.code === 504 &&
  (err.status.details?.causes ?? []).some((cause) => cause.reason === 'ResourceVersionTooLarge');

/** A `NetworkError`: no answer came back. */
export const isNetworkError = (err: unknown): err is NetworkError => err instanceof NetworkError;
