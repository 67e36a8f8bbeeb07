// Inside a plugin's worker: the `Request` a route handler gets, built only when the handler needs more of it than
// its method, URL, params and user (most small handlers read only those), so that a call costs no undici Request,
// Headers, body stream or AbortSignal unless they are used.
import type { HostMessage } from './protocol';

type RequestMessage = Extract<HostMessage, { type: 'request' }>;

/** What the handler reads without the Request being built. */
const CHEAP = new Set<PropertyKey>(['method', 'url', 'params', 'user', 'client']);
const OWN = ['params', 'user', 'client'];

/**
 * The handler's request: a WHATWG `Request` (`instanceof Request` holds) with
 * `params`, `user` and `client` (made at its first use) of its own; the real Request is built from the message
 * at the first use of anything else (`headers`, `json()`, `body`, `signal` …).
 */
export function handlerRequest(
  message: RequestMessage,
  body: () => ReadableStream<Uint8Array> | undefined,
  client: () => unknown,
): Request {
  let madeClient: { value: unknown } | undefined;
  const cheap: Record<string, unknown> = {
    method: message.method,
    url: `http://plugin.invalid${message.url}`,
    params: Object.freeze({ ...message.params }),
    user: Object.freeze({ name: message.user.name, groups: Object.freeze([...message.user.groups]) }),
    get client() {
      return (madeClient ??= { value: client() }).value;
    },
  };
  const added = new Map<PropertyKey, unknown>();
  let built: Request | undefined;
  const real = () => (built ??= buildRequest(message, body()));
  return new Proxy({} as Request, {
    get(_target, key) {
      if (added.has(key)) return added.get(key);
      if (typeof key === 'string' && CHEAP.has(key)) return cheap[key];
      const request = real();
      const value: unknown = Reflect.get(request, key, request);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(request) : value;
    },
    has: (_target, key) => added.has(key) || CHEAP.has(key) || key in real(),
    getPrototypeOf: () => Request.prototype,
    ownKeys: () => [...OWN],
    getOwnPropertyDescriptor: (_target, key) =>
      typeof key === 'string' && OWN.includes(key)
        ? { value: cheap[key], enumerable: true, configurable: true, writable: false }
        : undefined,
    // A handler may hang its own fields on the request, as on any object; its own are read-only, as a Request's are.
    set: (_target, key, value) => !CHEAP.has(key) && (added.set(key, value), true),
  });
}

function buildRequest(message: RequestMessage, stream: ReadableStream<Uint8Array> | undefined): Request {
  const init: RequestInit = { method: message.method, headers: message.headers };
  if (message.body && message.method !== 'GET' && message.method !== 'HEAD') init.body = message.body;
  if (stream) Object.assign(init, { body: stream, duplex: 'half' });
  return new Request(`http://plugin.invalid${message.url}`, init);
}
