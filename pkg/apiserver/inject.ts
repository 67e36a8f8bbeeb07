import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { actFor } from '../auth/authn/in-process-caller';
import type { UserInfo } from '../auth/user';

/** A request answered in process, without a connection: method, path with query, headers, body. */
export interface InjectedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** Its answer, whole: status, headers (lower-case names), body. */
export interface InjectedResponse {
  status: number;
  headers: [string, string][];
  body: string;
}

/** The socket of every injected request: never connected, shared (nothing is written to it). */
const NO_CONNECTION = new Socket();

/**
 * Runs one request through `handle` (the apiserver's whole pipeline: authentication, authorisation, the handler)
 * with a request and a response that no socket backs: the response's status, headers and body are collected and
 * resolved once it ends. Rejects when the handler destroys the response (it could not answer). For answers that
 * end, not for streams such as a watch. With `caller`, the request is authenticated as that user, whatever it
 * carries (a plugin handler acting for the user who called its route).
 */
export function injectRequest(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  request: InjectedRequest,
  caller?: UserInfo,
): Promise<InjectedResponse> {
  const req = new IncomingMessage(NO_CONNECTION);
  if (caller) actFor(req, caller);
  req.method = request.method;
  req.url = request.url;
  for (const [name, value] of Object.entries(request.headers)) {
    req.headers[name.toLowerCase()] = value;
    req.rawHeaders.push(name, value);
  }
  if (request.body !== undefined) req.push(Buffer.from(request.body));
  req.push(null);
  const res = new ServerResponse(req);
  // Kept as text: the answer goes to a worker as a string, so bytes would only be decoded again.
  const chunks: string[] = [];
  const collect = (chunk: unknown) => {
    if (typeof chunk === 'string') chunks.push(chunk);
    else if (chunk instanceof Uint8Array)
      chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString());
  };
  return new Promise<InjectedResponse>((resolve, reject) => {
    res.write = ((chunk: unknown) => {
      if (!res.headersSent) res.writeHead(res.statusCode);
      collect(chunk);
      return true;
    }) as ServerResponse['write'];
    res.end = ((chunk?: unknown) => {
      if (!res.headersSent) res.writeHead(res.statusCode);
      if (typeof chunk !== 'function') collect(chunk);
      res.finished = true;
      resolve({
        status: res.statusCode,
        headers: headerPairs(res),
        body: chunks.length === 1 ? chunks[0] : chunks.join(''),
      });
      res.emit('finish');
      res.emit('close');
      return res;
    }) as ServerResponse['end'];
    res.destroy = ((err?: Error) => {
      reject(err ?? new Error('the apiserver ended the answer without finishing it'));
      res.emit('close');
      return res;
    }) as ServerResponse['destroy'];
    handle(req, res).catch(reject);
  });
}

/** The response's headers as `[name, value]` pairs, a multi-valued one repeated. */
function headerPairs(res: ServerResponse): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(res.getHeaders())) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) pairs.push([name, String(one)]);
  }
  return pairs;
}
