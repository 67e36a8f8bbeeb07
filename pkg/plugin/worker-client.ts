import { ApiClient } from '../client/api-client';
import { trustingFetch, type Fetch } from '../client/trusting-fetch';
import type { ApiAnswer, ApiCall, PluginWorkerData } from './protocol';

/** Posts one of `ctx.client`'s requests to the host; resolves with the answer. */
export type ApiCaller = (call: ApiCall) => Promise<ApiAnswer>;

/**
 * The plugin's `ctx.client`: pkg/client's ApiClient acting as `system:plugin:<name>`, or undefined without access.
 * With `inProcess`, its requests go to the host as messages and run through the apiserver's pipeline in process
 * (the same authentication and authorisation, no connection); a watch, which streams, still goes over HTTP.
 */
export function pluginClient(data: PluginWorkerData, call: ApiCaller): ApiClient | undefined {
  if (!data.api) return undefined;
  return new ApiClient({
    server: data.api.server,
    token: data.api.token,
    insecureSkipTlsVerify: data.api.insecureSkipTlsVerify,
    userAgent: `svc-plugin/${data.name}`,
    fetch: data.api.inProcess ? inProcessFetch(data.api.server, call, overHttp(data.api)) : undefined,
  });
}

/**
 * A route handler's `req.client`: an ApiClient whose requests run in process as the user who called the route, with
 * exactly that user's rights (their conditional rules included), until the handler answers. Undefined when the
 * apiserver does not answer plugins in process. It cannot watch: a watch outlives the request it would act for.
 */
export function callerClient(data: PluginWorkerData, call: ApiCaller, requestId: number): ApiClient | undefined {
  if (!data.api?.inProcess) return undefined;
  const refuseWatch: Fetch = () =>
    Promise.reject(new TypeError('req.client cannot watch: a watch outlives the request; use ctx.client'));
  return new ApiClient({
    server: data.api.server,
    userAgent: `svc-plugin/${data.name}`,
    fetch: inProcessFetch(data.api.server, (c) => call({ ...c, onBehalfOf: requestId }), refuseWatch),
  });
}

/** How a watch reaches the apiserver's own listener: HTTP, or HTTPS without checking its certificate's names. */
function overHttp(api: NonNullable<PluginWorkerData['api']>): Fetch {
  return api.server.startsWith('https:') && api.insecureSkipTlsVerify
    ? trustingFetch(undefined, { rejectUnauthorized: false })
    : (url, init) => fetch(url, init);
}

/** A `fetch` that hands each request but a watch to `call`, and builds a standard Response of its answer. */
function inProcessFetch(server: string, call: ApiCaller, watchFetch: Fetch): Fetch {
  return async (url: string, init: RequestInit): Promise<Response> => {
    const watch = new URL(url).searchParams.get('watch');
    if (watch === 'true' || watch === '1') return watchFetch(url, init);
    init.signal?.throwIfAborted();
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const answering = call({
      method: init.method ?? 'GET',
      url: url.slice(server.replace(/\/+$/, '').length),
      headers,
      body: typeof init.body === 'string' ? init.body : undefined,
    });
    const answer = await abortable(answering, init.signal ?? undefined);
    const body = [204, 205, 304].includes(answer.status) ? null : answer.body;
    return new Response(body, { status: answer.status, headers: answer.headers });
  };
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
