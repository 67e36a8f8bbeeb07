import { tooLarge } from '../api/errors';
import type { ApiAnswer, ApiCall } from './protocol';

/**
 * A `ctx.client` request as the plugin's identity, whatever credentials the plugin's code put on it: its token
 * replaces any `Authorization`, and cookies and impersonation headers are dropped.
 */
export function asPlugin(call: ApiCall, token: string): ApiCall {
  return { ...call, headers: { ...credentialFree(call.headers), authorization: `Bearer ${token}` } };
}

/**
 * A `req.client` request, which the host runs as the route's caller: every credential the plugin's code put on it
 * is dropped (the caller's identity is given to the pipeline directly, never as a header).
 */
export function asCaller(call: ApiCall): ApiCall {
  return { ...call, headers: credentialFree(call.headers) };
}

function credentialFree(headers: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (key !== 'authorization' && key !== 'cookie' && !key.startsWith('impersonate-')) kept[key] = value;
  }
  return kept;
}

/**
 * The answer to a `ctx.client` request that is not run at all: a body over the apiserver's limit is a 413 `Status`,
 * as over HTTP (where it would be refused while it streams; here it has already crossed the threads, so it goes no
 * further). Undefined for any other request.
 */
export function oversizedCall(call: ApiCall, maxBodyBytes: number): ApiAnswer | undefined {
  if (call.body === undefined || Buffer.byteLength(call.body) <= maxBodyBytes) return undefined;
  const status = tooLarge(maxBodyBytes).toStatus();
  return { status: status.code, headers: [['content-type', 'application/json']], body: JSON.stringify(status) };
}
