import type { IncomingHttpHeaders } from 'node:http';
import { Agent, request } from 'node:https';
import { Readable } from 'node:stream';

/** The part of `fetch` the client uses: a URL and method, headers, a string body, a signal. */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** Statuses whose Response must have no body. */
const NULL_BODY = new Set([204, 205, 304]);

/**
 * A `fetch` for `https://` URLs that trusts the certificates `ca` (PEM) — a
 * private CA such as `--tls-self-signed`'s — instead of the system's (or, with
 * `rejectUnauthorized: false`, any certificate). Node 20's
 * global `fetch` takes no CA of its own, so this goes through `node:https`
 * (keep-alive connections, shared per returned function) and hands back a
 * standard `Response` whose body streams. Like `fetch`, it rejects with a
 * TypeError whose `cause` says why when no answer comes.
 * @example const fetchLocal = trustingFetch(readFileSync('data/tls/ca.crt')); await fetchLocal('https://127.0.0.1:8080/readyz', {});
 */
export function trustingFetch(ca: string | Buffer | undefined, options: { rejectUnauthorized?: boolean } = {}): Fetch {
  const agent = new Agent({ ca, keepAlive: true, rejectUnauthorized: options.rejectUnauthorized ?? true });
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => {
        headers[name] = value;
      });
      const body = init.body ?? undefined;
      if (body !== undefined && typeof body !== 'string') throw new TypeError('trustingFetch sends string bodies only');
      if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
      const req = request(
        url,
        { method: init.method ?? 'GET', headers, agent, signal: init.signal ?? undefined },
        (res) => {
          const status = res.statusCode ?? 0;
          if (status < 200) {
            res.destroy();
            reject(new TypeError('fetch failed', { cause: new Error(`unexpected status ${status}`) }));
            return;
          }
          const stream = NULL_BODY.has(status) ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
          if (!stream) res.resume();
          resolve(
            new Response(stream, { status, statusText: res.statusMessage, headers: responseHeaders(res.headers) }),
          );
        },
      );
      req.on('error', (cause) => reject(new TypeError('fetch failed', { cause })));
      req.end(body);
    });
}

function responseHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
  }
  return headers;
}
