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
  const cheap = new CheapFields(message, client) as unknown as Record<string, unknown>;
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

/**
 * What the handler reads without the Request being built; `client` made at its first use. A class: an object
 * literal with a getter, or a frozen spread copy, costs a new hidden class per request on this Node.
 */
class CheapFields {
  readonly method: string;
  readonly url: string;
  readonly params: Readonly<Record<string, string>>;
  readonly user: Readonly<{ name: string; groups: readonly string[] }>;
  private made?: { value: unknown };

  constructor(
    message: RequestMessage,
    private readonly makeClient: () => unknown,
  ) {
    this.method = message.method;
    this.url = `http://plugin.invalid${message.url}`;
    // The message's own object, this request's alone.
    this.params = Object.freeze(message.params);
    this.user = Object.freeze({ name: message.user.name, groups: Object.freeze([...message.user.groups]) });
  }

  get client(): unknown {
    this.made ??= { value: this.makeClient() };
    return this.made.value;
  }
}

function buildRequest(message: RequestMessage, stream: ReadableStream<Uint8Array> | undefined): Request {
  const init: RequestInit = { method: message.method, headers: JSON.parse(message.headers) as [string, string][] };
  if (message.body && message.method !== 'GET' && message.method !== 'HEAD') init.body = message.body;
  if (stream) Object.assign(init, { body: stream, duplex: 'half' });
  return new Request(`http://plugin.invalid${message.url}`, init);
}
