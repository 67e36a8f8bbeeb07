import { createHash } from 'node:crypto';
import type { RequestContext } from './context';
import { sendJson } from './respond';

/** An entity tag of a JSON body: a hash of its encoding. */
export function etagOf(body: unknown): string {
  return `"${createHash('sha1').update(JSON.stringify(body)).digest('base64url')}"`;
}

/** Whether the request's `If-None-Match` names `etag` (or `*`); weak tags compare as strong ones. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim().replace(/^W\//, '');
    return t === '*' || t === etag;
  });
}

/**
 * Answers `body` as JSON with its `ETag`, or `304 Not Modified` without a
 * body when the client already holds it (`If-None-Match`): what a client
 * that polls a small, rarely changing answer asks for (the console's
 * permissions). Never stored by shared caches.
 */
export function sendJsonIfChanged(ctx: RequestContext, body: unknown): void {
  const etag = etagOf(body);
  const headers = { ETag: etag, 'Cache-Control': 'private, no-cache' };
  if (matches(ctx.req.headers['if-none-match'], etag)) {
    ctx.res.writeHead(304, headers);
    ctx.res.end();
    return;
  }
  sendJson(ctx.res, 200, body, headers);
}
