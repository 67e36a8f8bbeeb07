import { tooLarge } from '../api/errors';
import type { ApiAnswer, ApiCall } from './protocol';

/**
 * A `ctx.client` request as the plugin's identity, whatever credentials the plugin's code put on it: its token
 * replaces any `Authorization`, and cookies and impersonation headers are dropped.
 */
export function asPlugin(call: ApiCall, token: string): ApiCall {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(call.headers)) {
    const key = name.toLowerCase();
    if (key !== 'authorization' && key !== 'cookie' && !key.startsWith('impersonate-')) headers[key] = value;
  }
  return { ...call, headers: { ...headers, authorization: `Bearer ${token}` } };
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
