import type { RequestContext } from './context';

/**
 * Writes a request's one access-log line, at info, once it is answered (a
 * watch once it ends): the request id (the logger's binding), the user, the
 * verb, method and path, the status code, the duration in milliseconds and
 * the bytes sent on the connection for it (headers included).
 * `sentBefore` is the connection's byte count when the request began.
 */
export function logAccess(ctx: RequestContext, started: bigint, sentBefore: number): void {
  const { info, req, res } = ctx;
  const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
  const bytes = (res.socket?.bytesWritten ?? req.socket?.bytesWritten ?? sentBefore) - sentBefore;
  ctx.log.info(
    {
      user: ctx.user.name,
      verb: info.verb,
      method: req.method,
      path: info.path,
      code: res.statusCode,
      ms,
      bytes,
    },
    'request',
  );
}
