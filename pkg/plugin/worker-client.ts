import { ApiClient } from '../client/api-client';
import { trustingFetch, type Fetch } from '../client/trusting-fetch';
import type { ObjectReadAnswer } from '../api/object-read';
import type { ApiAnswer, ApiCall, ApiRead, PluginWorkerData } from './protocol';

/** Posts one of `ctx.client`'s requests to the host; resolves with the answer. */
export type ApiCaller = (call: ApiCall) => Promise<ApiAnswer>;

/** How a worker's clients reach the host: requests (`call`), and plain reads answered as values (`read`). */
export interface HostApi {
  call: ApiCaller;
  read: (read: ApiRead) => Promise<ObjectReadAnswer>;
}

/**
 * The plugin's `ctx.client`: pkg/client's ApiClient acting as `system:plugin:<name>`, or undefined without access.
 * With `inProcess`, its requests go to the host as messages and are answered in process (the same authentication
 * and authorisation, no connection): a get or a list as values, any other through the apiserver's pipeline; a
 * watch, which streams, still goes over HTTP.
 */
export function pluginClient(data: PluginWorkerData, host: HostApi): ApiClient | undefined {
  if (!data.api) return undefined;
  const inProcess = data.api.inProcess === true;
  return new ApiClient({
    server: data.api.server,
    token: data.api.token,
    insecureSkipTlsVerify: data.api.insecureSkipTlsVerify,
    userAgent: `svc-plugin/${data.name}`,
    fetch: inProcess ? inProcessFetch(data.api.server, host.call, overHttp(data.api)) : undefined,
    reads: inProcess ? (read) => host.read({ read }) : undefined,
  });
}

/**
 * A route handler's `req.client`: an ApiClient whose requests run in process as the user who called the route, with
 * exactly that user's rights (their conditional rules included), until the handler answers. Undefined when the
 * apiserver does not answer plugins in process. It cannot watch: a watch outlives the request it would act for.
 */
export function callerClient(data: PluginWorkerData, host: HostApi, requestId: number): ApiClient | undefined {
  if (!data.api?.inProcess) return undefined;
  const refuseWatch: Fetch = () =>
    Promise.reject(new TypeError('req.client cannot watch: a watch outlives the request; use ctx.client'));
  return new ApiClient({
    server: data.api.server,
    userAgent: `svc-plugin/${data.name}`,
    fetch: inProcessFetch(data.api.server, (c) => host.call({ ...c, onBehalfOf: requestId }), refuseWatch),
    reads: (read) => host.read({ read, onBehalfOf: requestId }),
  });
}

/** How a watch reaches the apiserver's own listener: HTTP, or HTTPS without checking its certificate's names. */
function overHttp(api: NonNullable<PluginWorkerData['api']>): Fetch {
  return api.server.startsWith('https:') && api.insecureSkipTlsVerify
    ? trustingFetch(undefined, { rejectUnauthorized: false })
    : (url, init) => fetch(url, init);
}

/**
 * A `fetch` that hands each request but a watch to `call`, and answers what pkg/client's transport reads of it
 * (status, headers, the text): a standard Response would build a body stream only for the text to be read back.
 */
function inProcessFetch(server: string, call: ApiCaller, watchFetch: Fetch): Fetch {
  const prefix = server.replace(/\/+$/, '').length;
  return async (url: string, init: RequestInit): Promise<Response> => {
    if (isWatch(url)) return watchFetch(url, init);
    init.signal?.throwIfAborted();
    const answering = call({
      method: init.method ?? 'GET',
      url: url.slice(prefix),
      headers: plainHeaders(init.headers),
      body: typeof init.body === 'string' ? init.body : undefined,
    });
    const answer = await abortable(answering, init.signal ?? undefined);
    return new AnswerResponse(answer) as unknown as Response;
  };
}

function isWatch(url: string): boolean {
  if (!url.includes('watch=')) return false;
  const watch = new URL(url).searchParams.get('watch');
  return watch === 'true' || watch === '1';
}

/** The request's headers as lower-case names and values. */
function plainHeaders(given: RequestInit['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  if (given === undefined) return headers;
  if (given instanceof Headers || Array.isArray(given)) {
    new Headers(given).forEach((value, name) => (headers[name] = value));
    return headers;
  }
  for (const [name, value] of Object.entries(given))
    headers[name.toLowerCase()] = typeof value === 'string' ? value : value.join(', ');
  return headers;
}

/** An in-process answer as the part of a `Response` pkg/client reads: `ok`, `status`, `headers.get`, `text()`, `json()`. */
export class AnswerResponse {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  readonly body = null;
  private readonly content: string;

  constructor(answer: ApiAnswer) {
    this.status = answer.status;
    this.ok = answer.status >= 200 && answer.status < 300;
    this.content = [204, 205, 304].includes(answer.status) ? '' : answer.body;
    const pairs = answer.headers;
    this.headers = {
      get(name: string): string | null {
        const key = name.toLowerCase();
        const values = pairs.filter(([n]) => n === key).map(([, v]) => v);
        return values.length === 0 ? null : values.join(', ');
      },
    };
  }

  async text(): Promise<string> {
    return this.content;
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.content);
  }
}

/** `promise`, or the signal's reason once it aborts first. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
