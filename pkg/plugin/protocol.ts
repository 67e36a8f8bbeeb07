import type { ObjectRead } from '../api/object-read';

/** What the host hands a plugin's worker at creation. */
export interface PluginWorkerData {
  name: string;
  version: string;
  settings: Record<string, unknown>;
  /** The absolute path of the plugin's `index.js`, if it has code. */
  main?: string;
  /** How `ctx.client` reaches the apiserver as `system:plugin:<name>`; absent: the plugin has no client. */
  api?: PluginApiAccess;
}

/** The apiserver's own address and the plugin's token for this start (in memory only, never logged). */
export interface PluginApiAccess {
  server: string;
  token: string;
  /** The apiserver serves HTTPS: its own listener is trusted without checking the certificate's names. */
  insecureSkipTlsVerify?: boolean;
  /**
   * `ctx.client`'s requests (but watches) go to the host as messages, answered in process: its plain reads as values
   * (`api-read`), the others as requests (`api-call`).
   */
  inProcess?: boolean;
}

/** A request of `ctx.client`, answered in the apiserver's process: method, path with query, headers, body. */
export interface ApiCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  /** A `req.client` call: the id of the unanswered route request whose caller it acts for. */
  onBehalfOf?: number;
}

/** A plain read of `ctx.client` or `req.client` (get, list), answered in process as values (`read-answer`). */
export interface ApiRead {
  read: ObjectRead;
  /** A `req.client` read: the id of the unanswered route request whose caller it acts for. */
  onBehalfOf?: number;
}

/** Its answer. */
export interface ApiAnswer {
  status: number;
  headers: [string, string][];
  body: string;
}

/** An index as a plugin declares it: a path (`spec.email`), or the source text of its `indexFunc` (ADR 0014). */
export interface DeclaredIndex {
  name: string;
  path?: string;
  source?: string;
  unique?: boolean;
  order?: 'ASC' | 'DESC';
}

/** A request forwarded to a plugin's route handler. */
export interface ForwardedRequest {
  routeId: number;
  method: string;
  /** Path and query, as the client sent them. */
  url: string;
  /**
   * The request's `[name, value]` pairs as JSON text: one string crosses threads as one copy, and the worker parses
   * it only for a handler that reads the headers.
   */
  headers: string;
  body?: Uint8Array;
  /** The body follows on demand: the worker sends `pull`, the host answers with `body`. */
  streamed?: boolean;
  params: Record<string, string>;
  user: { name: string; groups: string[] };
}

/** A route handler's answer. */
export interface ForwardedResponse {
  status: number;
  headers: [string, string][];
  /**
   * The whole body; with `streamed`, its first chunk, the others following as `chunk` messages until `end`. A string
   * is a whole body as text (a handler's plain value as JSON), sent as UTF-8.
   */
  body: Uint8Array | string;
  streamed?: boolean;
}

/** Messages from the host to a worker. */
export type HostMessage =
  | { type: 'reply'; id: number; error?: string }
  | ({ type: 'request'; id: number } & ForwardedRequest)
  | { type: 'stop' }
  /** Is the worker's thread turning its event loop? It answers `pong` (a blocked thread does not). */
  | { type: 'ping' }
  /** The host wrote the last chunk of response `id`: the worker may send the next. */
  | { type: 'ack'; id: number }
  /** The client of response `id` went away: the worker cancels its body stream. */
  | { type: 'cancel'; id: number }
  /** The next chunk of request `id`'s body (or its end, or why it stopped). */
  | { type: 'body'; id: number; chunk?: Uint8Array; done: boolean; error?: string }
  /** The answer to `ctx.client`'s call `id`, or why there is none. */
  | ({ type: 'api-answer'; id: number } & ApiAnswer)
  | { type: 'api-answer'; id: number; error: string }
  /**
   * The answer to read `id` (an object, a Status, or `unserved`: send it as a request) as JSON text of an
   * ObjectReadAnswer, or why there is none.
   */
  | { type: 'read-answer'; id: number; answer: string }
  | { type: 'read-answer'; id: number; error: string };

/** Messages from a worker to the host. */
export type WorkerMessage =
  | { type: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; message: string; fields?: Record<string, unknown> }
  | { type: 'register-model'; id: number; model: Record<string, unknown>; indexes: DeclaredIndex[] }
  | {
      type: 'register-route';
      id: number;
      routeId: number;
      method: string;
      path: string;
      accept?: string;
      contentTypes?: string[];
    }
  | { type: 'warning'; message: string }
  | { type: 'booted' }
  | { type: 'started' }
  | { type: 'start-failed'; message: string }
  | ({ type: 'response'; id: number } & ForwardedResponse)
  | { type: 'response'; id: number; error: string }
  | { type: 'stopped'; error?: string }
  | { type: 'chunk'; id: number; chunk: Uint8Array }
  | { type: 'end'; id: number; error?: string }
  | { type: 'pull'; id: number }
  | { type: 'pong' }
  /** A request of `ctx.client`'s, to be answered in process (`api-answer`). */
  | ({ type: 'api-call'; id: number } & ApiCall)
  /** A plain read of `ctx.client`'s or `req.client`'s, to be answered in process as values (`read-answer`). */
  | ({ type: 'api-read'; id: number } & ApiRead)
  /** What the worker's thread holds now: its heap, and memory outside it (Buffers, ArrayBuffers), in bytes. */
  | { type: 'memory'; heapUsed: number; external: number };
