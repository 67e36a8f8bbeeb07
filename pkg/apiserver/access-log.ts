import type { RequestContext } from './context';

/** Query parameters whose value is a secret by its name (a token, a password): their value is never logged. */
const SECRET_PARAMETER = /token|password|passwd|secret|credential|auth/i;

/**
 * Writes a request's one access-log line, at info, once it is answered (a
 * watch once it ends): the request id (the logger's binding), the user, the
 * verb, method and path, the query string when there is one (a list's
 * selectors are what an operator looks for; see `loggedQuery` for secrets), the
 * status code, the duration in milliseconds and the bytes sent on the
 * connection for it (headers included).
 * `sentBefore` is the connection's byte count when the request began.
 */
export function logAccess(ctx: RequestContext, started: bigint, sentBefore: number): void {
  const { info, req, res } = ctx;
  const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100;
  const bytes = (res.socket?.bytesWritten ?? req.socket?.bytesWritten ?? sentBefore) - sentBefore;
  const query = loggedQuery(req.url ?? '');
  ctx.log.info(
    {
      user: ctx.user.name,
      ...(ctx.user.via && { via: ctx.user.via }),
      verb: info.verb,
      method: req.method,
      path: info.path,
      ...(query && { query }),
      code: res.statusCode,
      ms,
      bytes,
    },
    'request',
  );
}

/**
 * The query string of a request URL as the log shows it, '' for none: decoded
 * (`labelSelector=app=web`, as typed), with the value of any parameter whose
 * name says it holds a secret (`access_token`, `password`, …) replaced by
 * `REDACTED`. Nothing this server reads takes a secret in the query, but a
 * client may send one anyway, and a log is read by more people than a token.
 */
export function loggedQuery(url: string): string {
  const at = url.indexOf('?');
  if (at < 0 || at === url.length - 1) return '';
  const params = new URLSearchParams(url.slice(at + 1));
  return [...params].map(([name, value]) => `${name}=${SECRET_PARAMETER.test(name) ? 'REDACTED' : value}`).join('&');
}
