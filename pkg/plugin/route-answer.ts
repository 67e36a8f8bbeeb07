import type { IncomingMessage, ServerResponse } from 'node:http';
import { internalError, StatusError } from '../api/errors';
import type { Logger } from '../util/log';
import type { RequestContext } from '../apiserver/context';
import type { ForwardedRequest } from './protocol';
import { RequestBodyStream } from './request-body';
import { PluginHandlerError, PluginTimeoutError, type PluginAnswer } from './plugin-worker';

/** Request headers a plugin never sees: the caller's credentials are the apiserver's business. */
const PRIVATE_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);
/** Response headers the apiserver sets itself. */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/** A request as the plugin's worker gets it (its body, if any, follows as a stream). */
export function forwardedRequest(
  ctx: RequestContext,
  routeId: number,
  params: Record<string, string>,
): ForwardedRequest {
  return {
    routeId,
    method: ctx.req.method ?? 'GET',
    url: ctx.req.url ?? '/',
    headers: JSON.stringify(forwardedHeaders(ctx.req)),
    params,
    user: { name: ctx.user.name, groups: [...ctx.user.groups] },
  };
}

/** The request's body as a stream for the plugin; undefined for GET and HEAD. A declared size over the limit: 413. */
export function requestBody(req: IncomingMessage, limit: number): RequestBodyStream | undefined {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === undefined) return undefined;
  const body = new RequestBodyStream(req, limit);
  const refused = body.refusal();
  if (refused) throw refused;
  return body;
}

/** The request's headers as the plugin gets them, without credentials. */
function forwardedHeaders(req: IncomingMessage): [string, string][] {
  const headers: [string, string][] = [];
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined || PRIVATE_HEADERS.has(key)) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.push([key, v]);
  }
  return headers;
}

/**
 * Writes a handler's answer, its framing headers replaced by the apiserver's
 * own: whole with a Content-Length, or streamed (chunked), each chunk asked
 * of the worker only once the last is handed to the connection (back
 * pressure). A stream that fails midway cuts the connection: the status is
 * already sent.
 */
export async function writeAnswer(res: ServerResponse, answer: PluginAnswer, log: Logger): Promise<void> {
  const head: Record<string, string> = {};
  for (const [key, value] of answer.headers) if (!FRAMING_HEADERS.has(key.toLowerCase())) head[key] = value;
  const body = answer.body;
  const first =
    typeof body === 'string' ? Buffer.from(body) : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const stream = answer.stream;
  if (!stream) {
    head['Content-Length'] = String(first.byteLength);
    res.writeHead(answer.status, head);
    res.end(first);
    return;
  }
  res.writeHead(answer.status, head);
  const gone = () => !res.writableFinished && stream.cancel();
  res.once('close', gone);
  try {
    await writeChunk(res, first);
    stream.written();
    for await (const chunk of stream) {
      await writeChunk(res, Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      stream.written();
    }
    res.end();
  } catch (err) {
    log.warn({ reason: (err as Error).message }, 'plugin response stream failed; connection closed');
    res.destroy();
  } finally {
    res.off('close', gone);
  }
}

/** Writes a chunk; resolves once the connection takes more (or is gone). */
function writeChunk(res: ServerResponse, chunk: Buffer): Promise<void> {
  if (res.write(chunk) || res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
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
