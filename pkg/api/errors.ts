/**
 * The one API error type. Every failure that reaches a client
 * is a StatusError, rendered once, either as a Kubernetes `Status` or, for
 * `Accept: application/problem+json`, as RFC 7807.
 */

/** The `reason` values a `Status` carries (Kubernetes' `StatusReason`). */
export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'MethodNotAllowed'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'NotAcceptable'
  | 'Invalid'
  | 'TooManyRequests'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'Timeout';

/** One failing field of an `Invalid` error, e.g. `{field: 'spec.age', reason: 'FieldValueInvalid', message: …}`. */
export interface StatusCause {
  field?: string;
  reason?: string;
  message: string;
}

/** `details` of a Status: which object the error is about, and its causes. */
export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
  /** A 403's nearest miss: the roles considered and the closest rules, each with why it does not allow. */
  trace?: { kind: string; name: string; message: string }[];
  /** A 403's role templates that would allow the request. */
  templates?: string[];
}

/** The Kubernetes `Status` object, as sent on the wire. */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/** The resource an error is about, e.g. `{group: 'example.com', resource: 'persons', name: 'ada'}`. */
export interface ErrorSubject {
  group?: string;
  /** The plural resource name; reported as `details.kind`, as Kubernetes does. */
  resource?: string;
  name?: string;
}

export class StatusError extends Error {
  override readonly name = 'StatusError';

  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details: StatusDetails = {},
    /** Extra response headers, e.g. `Retry-After` or `WWW-Authenticate`. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /** The error as a Kubernetes `Status`. */
  toStatus(): Status {
    return statusObject({
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      details: this.details,
      code: this.code,
    });
  }

  /** The error as RFC 7807 problem details; `instance` is the request path. */
  toProblem(instance: string): Record<string, unknown> {
    const problem: Record<string, unknown> = {
      type: `https://svc.run/problems/${this.reason}`,
      title: this.reason,
      status: this.code,
      detail: this.message,
      instance,
    };
    if (this.details.causes?.length) problem.causes = this.details.causes;
    return problem;
  }
}

/** A `Status` on the wire: `kind`, `apiVersion` and an empty `metadata` (as Kubernetes sends), then `fields`. */
const statusObject = (fields: Omit<Status, 'kind' | 'apiVersion' | 'metadata'>): Status => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  ...fields,
});

/**
 * The `Success` Status of a request that answers no object, e.g. a DELETE that removed one
 * (docs/api.md): Kubernetes' shape, with the object in `details`.
 *
 * @example successStatus({ name: 'ada', group: 'example.com', kind: 'persons', uid })
 */
export const successStatus = (details: StatusDetails): Status =>
  statusObject({ status: 'Success', details, code: 200 });

/** `persons.example.com` for a group, `roles` for the core group: how messages name a resource. */
export function qualifiedResource({ group, resource }: ErrorSubject): string {
  return group ? `${resource}.${group}` : `${resource ?? ''}`;
}

const detailsOf = (s: ErrorSubject): StatusDetails => {
  const d: StatusDetails = {};
  if (s.name !== undefined) d.name = s.name;
  if (s.group !== undefined) d.group = s.group;
  if (s.resource !== undefined) d.kind = s.resource;
  return d;
};

export const badRequest = (message: string, causes?: StatusCause[]) =>
  new StatusError(400, 'BadRequest', message, causes ? { causes } : {});

export const unauthorized = (message = 'Unauthorized', challenge = 'Basic realm="svc"') =>
  new StatusError(401, 'Unauthorized', message, {}, { 'WWW-Authenticate': challenge });

export const forbidden = (message: string, subject: ErrorSubject = {}, more: Partial<StatusDetails> = {}) =>
  new StatusError(403, 'Forbidden', message, { ...detailsOf(subject), ...more });

export const notFound = (subject: ErrorSubject) =>
  new StatusError(404, 'NotFound', `${qualifiedResource(subject)} "${subject.name}" not found`, detailsOf(subject));

/**
 * Whether an error says 404 NotFound: a `StatusError`, or an error of its shape (the client's `ApiError`, whose
 * reason is absent when the server sent none).
 */
export function isNotFound(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const { code, reason } = err as { code?: unknown; reason?: unknown };
  return reason === 'NotFound' || (reason === undefined && code === 404);
}

/** A path no route serves. */
export const routeNotFound = () => new StatusError(404, 'NotFound', 'the server could not find the requested resource');

export const methodNotAllowed = (method: string, path: string) =>
  new StatusError(405, 'MethodNotAllowed', `the server does not allow ${method} on ${path}`);

export const alreadyExists = (subject: ErrorSubject) =>
  new StatusError(
    409,
    'AlreadyExists',
    `${qualifiedResource(subject)} "${subject.name}" already exists`,
    detailsOf(subject),
  );

export const conflict = (subject: ErrorSubject, message: string, causes?: StatusCause[]) =>
  new StatusError(409, 'Conflict', message, causes ? { ...detailsOf(subject), causes } : detailsOf(subject));

export const expired = (message: string) => new StatusError(410, 'Expired', message);

/** A client too slow to send its whole request within the server's request timeout. */
export const requestTimeout = () =>
  new StatusError(408, 'Timeout', "the request was not received in full within the server's request timeout");

export const tooLarge = (limit: number) =>
  new StatusError(413, 'RequestEntityTooLarge', `the request body is larger than the limit of ${limit} bytes`);

export const unsupportedMediaType = (type: string, supported: readonly string[]) =>
  new StatusError(
    415,
    'UnsupportedMediaType',
    `the media type "${type}" is not supported; use one of: ${supported.join(', ')}`,
  );

/**
 * A validation failure: one cause per failing field, all of them. As in Kubernetes, `details.kind` is the
 * object's kind when given (kubectl prints `The Person "bad" is invalid: …` from it), else the resource.
 */
export const invalid = (subject: ErrorSubject & { kind?: string }, causes: StatusCause[]) => {
  const what = subject.kind ?? qualifiedResource(subject);
  const summary = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message)).join(', ');
  const details = detailsOf(subject);
  if (subject.kind) details.kind = subject.kind;
  return new StatusError(422, 'Invalid', `${what} "${subject.name ?? ''}" is invalid: ${summary}`, {
    ...details,
    causes,
  });
};

export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new StatusError(429, 'TooManyRequests', message, { retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) });

export const serviceUnavailable = (message: string, retryAfterSeconds = 1) =>
  new StatusError(
    503,
    'ServiceUnavailable',
    message,
    { retryAfterSeconds },
    { 'Retry-After': String(retryAfterSeconds) },
  );

/** Anything unexpected: the message is generic so that no internals leak. */
export const internalError = () =>
  new StatusError(500, 'InternalError', 'an internal error occurred; it has been logged');
