import { ApiError, errorFromResponse } from './errors';

/** What one API call sends besides its method and path. */
export interface RequestOptions {
  body?: unknown;
  /** `application/json` (default for objects) or `application/yaml`, `application/merge-patch+json`, … */
  contentType?: string;
  accept?: string;
  /** Credentials other than the session's token (the login's Basic header). */
  authorization?: string;
  signal?: AbortSignal;
}

let currentToken: string | undefined;
let onUnauthorized: () => void = () => undefined;

/** The token every call carries (`Authorization: Bearer …`), and what to do when the server no longer accepts it. */
export function setApiToken(token: string | undefined, unauthorized: () => void = () => undefined): void {
  currentToken = token;
  onUnauthorized = unauthorized;
}

export function currentBearerToken(): string | undefined {
  return currentToken;
}

function headersFor(options: RequestOptions): Record<string, string> {
  const headers: Record<string, string> = { Accept: options.accept ?? 'application/json' };
  const authorization = options.authorization ?? (currentToken ? `Bearer ${currentToken}` : undefined);
  if (authorization) headers.Authorization = authorization;
  if (options.body !== undefined) headers['Content-Type'] = options.contentType ?? 'application/json';
  return headers;
}

/** Calls the API; resolves with the parsed JSON body, rejects with the server's Status as an ApiError. */
export async function api<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const body =
    options.body === undefined || typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  // No cookies or browser-held credentials: the token says who calls. (Omitting them also keeps a 401's
  // `WWW-Authenticate: Basic` from opening the browser's own password dialog.)
  const res = await fetch(path, {
    method,
    headers: headersFor(options),
    body,
    signal: options.signal,
    credentials: 'omit',
  });
  if (!res.ok) {
    const error = await errorFromResponse(res);
    if (res.status === 401 && currentToken && !options.authorization) onUnauthorized();
    throw error;
  }
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export { ApiError };
