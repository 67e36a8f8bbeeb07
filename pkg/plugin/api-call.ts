import type { ApiCall } from './protocol';

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
