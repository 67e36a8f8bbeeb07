/** One cause of a Kubernetes `Status` (API 422 `Invalid`): which field, why, in words. */
export interface StatusCause {
  field?: string;
  reason?: string;
  message?: string;
}

/** A failed API call: the server's `Status` (code, reason, message, causes) or a network failure (code 0). */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly causes: StatusCause[] = [],
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
  try {
    const status = JSON.parse(text) as { reason?: string; message?: string; details?: { causes?: StatusCause[] } };
    return new ApiError(res.status, status.reason ?? res.statusText, status.message ?? text, status.details?.causes);
  } catch {
    return new ApiError(res.status, res.statusText, text || `${res.status} ${res.statusText}`);
  }
}

/** Any thrown value as an ApiError (a fetch that never reached the server is code 0). */
export function asApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return new ApiError(0, 'NetworkError', `the server could not be reached: ${(err as Error)?.message ?? err}`);
}
