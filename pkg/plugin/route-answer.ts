import type { IncomingMessage, ServerResponse } from 'node:http';
import { internalError, StatusError } from '../api/errors';
import type { Logger } from '../util/log';
import { PluginHandlerError, PluginTimeoutError } from './plugin-worker';
import type { ForwardedResponse } from './protocol';

/** Request headers a plugin never sees: the caller's credentials are the apiserver's business. */
const PRIVATE_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);
/** Response headers the apiserver sets itself. */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/** The request's headers as the plugin gets them, without credentials. */
export function forwardedHeaders(req: IncomingMessage): [string, string][] {
  const headers: [string, string][] = [];
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined || PRIVATE_HEADERS.has(key)) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.push([key, v]);
  }
  return headers;
}

/** Writes a handler's answer, its framing headers replaced by the apiserver's own. */
export function writeAnswer(res: ServerResponse, answer: ForwardedResponse): void {
  const head: Record<string, string> = {};
  for (const [key, value] of answer.headers) if (!FRAMING_HEADERS.has(key.toLowerCase())) head[key] = value;
  head['Content-Length'] = String(answer.body.byteLength);
  res.writeHead(answer.status, head);
  res.end(Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength));
}

/** The Status a failed forward answers: 504 for a timeout, 500 (message logged, not sent) for a throw. */
export function routeFailure(
  err: unknown,
  where: { plugin: string; path: string; timeoutMs: number; log: Logger },
): unknown {
  if (err instanceof PluginTimeoutError) {
    return new StatusError(504, 'Timeout', `plugin "${where.plugin}" did not answer within ${where.timeoutMs / 1000}s`);
  }
  if (err instanceof PluginHandlerError) {
    where.log.error({ plugin: where.plugin, reason: err.message, path: where.path }, 'plugin route failed');
    return internalError();
  }
  return err;
}
