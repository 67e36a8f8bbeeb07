// The code that runs inside a plugin's worker thread: loads the plugin's
// index.js, hands start(ctx) its context, and answers the host's forwarded
// requests. Everything it asks of the host goes through messages, ctx.client's
// requests included when the host answers them in process (worker-client.ts).
import { parentPort, workerData } from 'node:worker_threads';
import type { ObjectReadAnswer } from '../api/object-read';
import type {
  ApiAnswer,
  ApiCall,
  ApiRead,
  DeclaredIndex,
  HostMessage,
  PluginWorkerData,
  WorkerMessage,
} from './protocol';
import { callerClient, pluginClient } from './worker-client';
import { controllerRoutes } from './worker-controllers';
import { ResponseSender } from './worker-response';
import { RequestBodies } from './worker-request';
import { handlerRequest } from './worker-handler-request';
import { MessageBatcher, unbatched, type MessageBatch } from './message-batch';
import { MEMORY_REPORT_INTERVAL_MS } from './memory-watch';
import { PendingCalls } from './pending-calls';
import './worker-sdk-alias';

type Handler = (request: Request) => unknown;
interface PluginModule {
  start?: (ctx: unknown) => unknown;
  stop?: (ctx: unknown) => unknown;
}

const port = parentPort;
const data = workerData as PluginWorkerData;
/** Every call of this worker's waiting for the host's answer: registrations, and its clients' requests and reads. */
const calls = new PendingCalls();
/**
 * How long a client's call waits for the host before its entry is dropped: the client gives up sooner (its own
 * request timeout); this bound only keeps a host that never answers from growing the table.
 */
const CLIENT_CALL_TIMEOUT_MS = 5 * 60_000;
const pending: Promise<void>[] = [];
const handlers: Handler[] = [];
let plugin: PluginModule = {};

const outbox = new MessageBatcher<WorkerMessage>((message, transfer) => port?.postMessage(message, transfer));
const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) => outbox.post(message, transfer);
const responses = new ResponseSender(post);
const bodies = new RequestBodies(post);

/** A client's call that failed (or got no answer): the client's request failing, as a `fetch` that failed. */
const fetchFailed = (reason: string) => new TypeError('fetch failed', { cause: new Error(reason) });
const clientCallTimeout = {
  ms: CLIENT_CALL_TIMEOUT_MS,
  error: () => fetchFailed(`no answer from the apiserver within ${CLIENT_CALL_TIMEOUT_MS / 1000}s`),
};

/** Sends one of `ctx.client`'s requests to the host; resolves with its answer. */
function callApi(call: ApiCall): Promise<ApiAnswer> {
  return calls.open((id) => post({ type: 'api-call', id, ...call }), clientCallTimeout);
}

/** Sends a plain read to the host; resolves with its answer as values. */
function readApi(read: ApiRead): Promise<ObjectReadAnswer> {
  return calls.open((id) => post({ type: 'api-read', id, ...read }), clientCallTimeout);
}

/** A read's answer as the host sends it, JSON text (a string crosses threads as one copy, an object field by field). */
const readAnswer = (text: string) => JSON.parse(text) as ObjectReadAnswer;

/** The host's answer to a call of this worker's, whatever its kind. */
function answered(message: Extract<HostMessage, { type: 'reply' | 'api-answer' | 'read-answer' }>): void {
  if (message.type === 'reply')
    calls.settle(message.id, message.error === undefined ? { value: undefined } : { error: new Error(message.error) });
  else if ('error' in message) calls.settle(message.id, { error: fetchFailed(message.error) });
  else calls.settle(message.id, { value: message.type === 'api-answer' ? message : readAnswer(message.answer) });
}

/** Asks the host for something; resolves when it agrees. */
function ask(
  message:
    | { type: 'register-model'; model: Record<string, unknown>; indexes: DeclaredIndex[] }
    | {
        type: 'register-route';
        routeId: number;
        method: string;
        path: string;
        accept?: string;
        contentTypes?: string[];
      },
): Promise<void> {
  const answered = calls.open<void>((id) => post({ ...message, id }));
  // Awaited again before the plugin counts as started; marked handled here so an un-awaited refusal is no crash.
  answered.catch(() => undefined);
  pending.push(answered);
  return answered;
}

function declaredIndexes(indexes: unknown): DeclaredIndex[] {
  const declared: unknown[] = [];
  if (typeof indexes === 'function')
    indexes({
      add(spec: unknown) {
        declared.push(spec);
        return this;
      },
    });
  else if (Array.isArray(indexes)) declared.push(...(indexes as unknown[]));
  else if (indexes !== undefined) throw new Error('indexes must be an array or a function (ix) => ix.add({...})');
  return declared.map(declaredIndex);
}

function declaredIndex(spec: unknown): DeclaredIndex {
  const { name, path, unique, order, indexFunc } = (spec ?? {}) as Record<string, unknown>;
  if (typeof name !== 'string' || name === '') throw new Error('every index needs a name');
  const common = { name, unique: unique === true, order: order === 'DESC' ? ('DESC' as const) : ('ASC' as const) };
  if (typeof indexFunc === 'function') return { ...common, source: indexFunc.toString() };
  if (typeof path === 'string') return { ...common, path };
  throw new Error(`index ${name}: declare indexFunc: (object) => string | string[], or a path such as 'spec.email'`);
}

function addRoute(method: string, path: string, handler: Handler, accept?: string, contentTypes?: unknown): void {
  if (typeof handler !== 'function') throw new Error(`route ${method} ${path}: the handler must be a function`);
  if (accept !== undefined && typeof accept !== 'string')
    throw new Error(`route ${method} ${path}: accept must be a media type`);
  if (contentTypes !== undefined && !(Array.isArray(contentTypes) && contentTypes.every((t) => typeof t === 'string')))
    throw new Error(`route ${method} ${path}: contentTypes must be a list of media types`);
  handlers.push(handler);
  const routeId = handlers.length - 1;
  const declared = { routeId, method: String(method).toUpperCase(), path, accept, contentTypes };
  void ask({ type: 'register-route', ...declared }).catch(() => undefined);
}

function addController(instance: unknown): void {
  const found = controllerRoutes(instance);
  if ('warning' in found) post({ type: 'warning', message: found.warning });
  else
    for (const route of found.routes)
      addRoute(route.method, route.path, route.handler, route.accept, route.contentTypes);
}

const log = (level: 'debug' | 'info' | 'warn' | 'error') => (message: unknown, fields?: Record<string, unknown>) => {
  post({
    type: 'log',
    level,
    message: String(message),
    fields: fields && typeof fields === 'object' ? { ...fields } : undefined,
  });
};

const ctx = Object.freeze({
  plugin: Object.freeze({ name: data.name, version: data.version, settings: data.settings }),
  log: Object.freeze({ debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') }),
  schemes: Object.freeze({
    register: (model: Record<string, unknown>, indexes?: unknown) =>
      ask({ type: 'register-model', model, indexes: declaredIndexes(indexes) }),
  }),
  routes: Object.freeze({
    get: (path: string, handler: Handler) => addRoute('GET', path, handler),
    post: (path: string, handler: Handler) => addRoute('POST', path, handler),
    put: (path: string, handler: Handler) => addRoute('PUT', path, handler),
    patch: (path: string, handler: Handler) => addRoute('PATCH', path, handler),
    delete: (path: string, handler: Handler) => addRoute('DELETE', path, handler),
    add: (route: { method: string; path: string; accept?: string; contentTypes?: unknown }, handler: Handler) =>
      addRoute(route.method, route.path, handler, route.accept, route.contentTypes),
    controller: addController,
  }),
  client: pluginClient(data, { call: callApi, read: readApi }),
});

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function start(): Promise<void> {
  // The start timeout counts from here: the worker's own start-up on a loaded machine is not the plugin's time.
  port?.postMessage({ type: 'booted' } satisfies WorkerMessage);
  try {
    // A plugin is CommonJS (docs/plugins.md): index.js is loaded the way Node loads any module.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    if (data.main) plugin = require(data.main) as PluginModule;
    if (typeof plugin.start === 'function') await plugin.start(ctx);
    await Promise.all(pending);
    post({ type: 'started' });
  } catch (err) {
    post({ type: 'start-failed', message: messageOf(err) });
  }
}

async function answer(message: Extract<HostMessage, { type: 'request' }>): Promise<void> {
  try {
    const body = () => (message.streamed ? bodies.stream(message.id) : undefined);
    const client = () => callerClient(data, { call: callApi, read: readApi }, message.id);
    const result = await handlers[message.routeId](handlerRequest(message, body, client));
    if (result instanceof Response) await responses.send(message.id, result);
    else post(plainAnswer(message.id, result));
  } catch (err) {
    post({ type: 'response', id: message.id, error: messageOf(err) });
  }
}

/** A handler's plain value, answered without Response machinery: nothing is 204, anything else its JSON. */
function plainAnswer(id: number, result: unknown): WorkerMessage {
  if (result === undefined) return { type: 'response', id, status: 204, headers: [], body: '' };
  const json = JSON.stringify(result) ?? '';
  return { type: 'response', id, status: 200, headers: [['content-type', 'application/json']], body: json };
}

async function stop(): Promise<void> {
  try {
    if (typeof plugin.stop === 'function') await plugin.stop(ctx);
    post({ type: 'stopped' });
  } catch (err) {
    post({ type: 'stopped', error: messageOf(err) });
  }
}

// The heap limit (resourceLimits) leaves Buffers and ArrayBuffers out: the host adds them up from these reports and
// stops a worker past its memory limit. Reported from the event loop; the timer never keeps the worker alive.
setInterval(() => {
  const { heapUsed, external } = process.memoryUsage();
  post({ type: 'memory', heapUsed, external });
}, MEMORY_REPORT_INTERVAL_MS).unref();

port?.on('message', (received: HostMessage | MessageBatch<HostMessage>) => unbatched(received, receive));

function receive(message: HostMessage): void {
  if (message.type === 'reply' || message.type === 'api-answer' || message.type === 'read-answer') {
    answered(message);
  } else if (message.type === 'request') {
    void answer(message);
  } else if (message.type === 'stop') {
    void stop();
  } else if (message.type === 'ping') {
    // Answered from the event loop: a thread blocked in a handler never gets here, and the host terminates it.
    post({ type: 'pong' });
  } else {
    receiveStreaming(message);
  }
}

/** The messages of streamed bodies: an answer's chunk written or its client gone, a request body's next chunk. */
function receiveStreaming(message: Extract<HostMessage, { type: 'ack' | 'cancel' | 'body' }>): void {
  if (message.type === 'ack') responses.ack(message.id);
  else if (message.type === 'cancel') responses.cancel(message.id);
  else bodies.received(message);
}
void start();
