/** One cause of a Kubernetes `Status` (API 422 `Invalid`): which field, why, in words. */
export interface StatusCause {
  field?: string;
  reason?: string;
  message?: string;
}

/** What a 403's `details` add: the access review's trace and the role templates that would allow the request. */
export interface Denial {
  trace: { kind: string; name: string; message: string }[];
  templates: string[];
}

/** A failed API call: the server's `Status` (code, reason, message, causes) or a network failure (code 0). */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly causes: StatusCause[] = [],
    /** How long the server asks to wait before trying again (a 429's or 503's `Retry-After`), in seconds. */
    readonly retryAfterSeconds?: number,
    /** A 403's nearest miss: the roles considered and the closest rules, and templates that would allow it. */
    readonly denial?: Denial,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** A stale `metadata.version`/`resourceVersion`: someone else wrote the object meanwhile. */
  get isConflict(): boolean {
    return this.code === 409 && this.reason === 'Conflict';
  }
}

/** Reads a failed response's `Status` body; a body that is not one still gives a readable error. */
export async function errorFromResponse(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  const retryAfter = retryAfterOf(res);
  try {
    const status = JSON.parse(text) as {
      reason?: string;
      message?: string;
      details?: { causes?: StatusCause[]; trace?: Denial['trace']; templates?: string[] };
    };
    const reason = status.reason ?? res.statusText;
    const details = status.details ?? {};
    const denial = res.status === 403 ? denialOf(details) : undefined;
    return new ApiError(res.status, reason, status.message ?? text, details.causes, retryAfter, denial);
  } catch {
    return new ApiError(res.status, res.statusText, text || `${res.status} ${res.statusText}`, [], retryAfter);
  }
}

/** A 403's nearest miss, when its `details` carry one. */
function denialOf(details: { trace?: Denial['trace']; templates?: string[] }): Denial | undefined {
  if (!details.trace && !details.templates) return undefined;
  return { trace: details.trace ?? [], templates: details.templates ?? [] };
}

/** `Retry-After` in seconds (the server sends seconds; an HTTP date is read too), if any. */
function retryAfterOf(res: Response): number | undefined {
  const header = res.headers.get('Retry-After');
  if (!header) return undefined;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header) : Math.ceil((Date.parse(header) - Date.now()) / 1000);
  return Number.isFinite(seconds) ? Math.max(0, seconds) : undefined;
}

/** Any thrown value as an ApiError (a fetch that never reached the server is code 0). */
export function asApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return new ApiError(0, 'NetworkError', `the server could not be reached: ${(err as Error)?.message ?? err}`);
}
