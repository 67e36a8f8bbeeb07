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

/** A GET of a text answer (`/metrics`): its body as text, or the server's Status as an ApiError. */
export async function getText(path: string): Promise<string> {
  const res = await fetch(path, { method: 'GET', headers: headersFor({ accept: 'text/plain' }), credentials: 'omit' });
  if (!res.ok) {
    const error = await errorFromResponse(res);
    if (res.status === 401 && currentToken) onUnauthorized();
    throw error;
  }
  return res.text();
}

/**
 * A conditional GET (`If-None-Match: etag`): the answer and its `ETag`, or
 * undefined when the server says it is unchanged (304). For small answers a
 * console polls (its permissions).
 */
export async function getIfChanged<T>(path: string, etag?: string): Promise<{ value: T; etag?: string } | undefined> {
  const headers = headersFor({});
  if (etag) headers['If-None-Match'] = etag;
  // no-store: the 304 comes to us, not to the browser's cache.
  const res = await fetch(path, { method: 'GET', headers, credentials: 'omit', cache: 'no-store' });
  if (res.status === 304) return undefined;
  if (!res.ok) {
    const error = await errorFromResponse(res);
    if (res.status === 401 && currentToken) onUnauthorized();
    throw error;
  }
  return { value: (await res.json()) as T, etag: res.headers.get('ETag') ?? undefined };
}
