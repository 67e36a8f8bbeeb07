import type { Worker } from 'node:worker_threads';
import type { UserInfo } from '../auth/user';
import { answerText, type ObjectRead, type ObjectReadResult } from '../api/object-read';
import type {
  ApiAnswer,
  ApiCall,
  DeclaredIndex,
  ForwardedRequest,
  ForwardedResponse,
  HostMessage,
  PluginWorkerData,
  WorkerMessage,
} from './protocol';
import { newPluginWorker } from './worker-entry';
import { MessageBatcher, unbatched, type MessageBatch } from './message-batch';
import { ResponseStream } from './response-stream';
import { LivenessCheck } from './liveness';
import type { RequestBodyStream } from './request-body';
import { memoryExceeded } from './memory-watch';
import { BlockedMemoryWatch } from './blocked-memory-watch';
import { BUSY_SAMPLE_MS, BusyWatch, utilizationTrusted } from './busy-watch';

/** How long a new worker thread may take to load svc's own worker code, before the plugin's code runs. */
const WORKER_BOOT_TIMEOUT_MS = 60_000;
/**
 * How long a worker's thread may take to answer a liveness check once a route timed out; a thread that turns its
 * event loop answers in well under a millisecond, so only a blocked one (an endless loop) misses this.
 */
const LIVENESS_TIMEOUT_MS = 2000;

/** A handler's answer as the host gets it: whole, or its first chunk and a stream of the rest. */
export type PluginAnswer = ForwardedResponse & { stream?: ResponseStream };

/** What a plugin's worker asks of the host; a throw (or rejection) refuses it and fails the plugin. */
export interface PluginWorkerHost {
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, unknown>): void;
  registerModel(model: Record<string, unknown>, indexes: DeclaredIndex[]): Promise<void>;
  registerRoute(routeId: number, method: string, path: string, accept?: string, contentTypes?: string[]): void;
  /** Something the plugin declared was ignored; the Plugin's message says so once it is STARTED. */
  warn(message: string): void;
  /** Answers one of `ctx.client`'s requests in process; absent: the client goes over HTTP. */
  callApi?(call: ApiCall, caller?: UserInfo): Promise<ApiAnswer>;
  /** Answers a plain read of `ctx.client` (or, with `caller`, of `req.client`) as values; absent: none is. */
  readApi?(read: ObjectRead, caller?: UserInfo): Promise<ObjectReadResult>;
  /** The worker ended or failed after it had started (it exited, threw outside a handler, ran out of memory). */
  crashed(message: string): void;
}

/** A route handler that threw: its message is logged, never sent to the client. */
export class PluginHandlerError extends Error {}
/** A route handler that did not answer in time. */
export class PluginTimeoutError extends Error {}

/**
 * One plugin's worker thread, seen from the apiserver: starts it (bounded by
 * a timeout, terminated when it does not finish), forwards requests to it,
 * and stops it. A worker that loops forever or crashes costs the apiserver
 * nothing but the thread, and not for long: one blocked in a route handler is
 * terminated once the route timed out and its thread missed a liveness check.
 */
export class PluginWorker {
  private worker?: Worker;
  /** What goes to the worker, gathered per event loop turn. */
  private outbox?: MessageBatcher<HostMessage>;
  private readonly answers = new Map<number, { resolve: (r: PluginAnswer) => void; reject: (e: Error) => void }>();
  /** The caller of each request the handler has not answered yet: whom its `req.client` acts for. */
  private readonly callers = new Map<number, UserInfo>();
  private readonly streams = new Map<number, ResponseStream>();
  /** The streamed request bodies of requests under way, by request id. */
  private readonly bodies = new Map<number, RequestBodyStream>();
  /** `METHOD path` of each route the host accepted, by route id, to name a route in a failure. */
  private readonly routeNames = new Map<number, string>();
  private readonly liveness = new LivenessCheck(() => this.outbox?.post({ type: 'ping' }), LIVENESS_TIMEOUT_MS);
  /** Set once the worker booted: its memory measured from outside while its thread is blocked. */
  private blockedMemory?: BlockedMemoryWatch;
  /** Samples the worker's event loop utilisation once it started; see BusyWatch. */
  private busyTimer?: NodeJS.Timeout;
  private nextId = 0;
  private started = false;
  private ended = false;
  private onStop?: () => void;

  constructor(
    private readonly data: PluginWorkerData,
    private readonly host: PluginWorkerHost,
    private readonly options: { startTimeoutMs: number; memoryMb: number; busyLimitMs?: number },
  ) {}

  /** Runs the plugin's `start(ctx)`; rejects with the reason (and terminates the worker) when it fails or times out. */
  start(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const fail = (message: string) => {
        clearTimeout(timer);
        this.stopWatches();
        if (this.started && !this.ended) this.host.crashed(message);
        void this.terminate();
        reject(new Error(message));
      };
      // Until the worker has booted, a fixed bound (a worker that never boots is the machine's trouble, not the
      // plugin's); from then on, the plugin's own start timeout.
      let timer = setTimeout(
        () => fail(`the plugin's worker did not start within ${WORKER_BOOT_TIMEOUT_MS / 1000}s`),
        WORKER_BOOT_TIMEOUT_MS,
      );
      const worker = newPluginWorker(this.data, { maxOldGenerationSizeMb: this.options.memoryMb });
      this.worker = worker;
      const outbox = new MessageBatcher<HostMessage>((message, transfer) => worker.postMessage(message, transfer));
      this.outbox = outbox;
      const receive = (message: WorkerMessage) => {
        if (message.type === 'booted') {
          clearTimeout(timer);
          this.blockedMemory = new BlockedMemoryWatch(this.options.memoryMb, fail);
          this.blockedMemory.start();
          timer = setTimeout(
            () => fail(`start did not finish within ${this.options.startTimeoutMs / 1000}s`),
            this.options.startTimeoutMs,
          );
        } else if (message.type === 'started') {
          clearTimeout(timer);
          this.started = true;
          this.watchBusy(worker, fail);
          resolve();
        } else if (message.type === 'start-failed') {
          fail(`start failed: ${message.message}`);
        } else {
          this.receive(message, fail);
        }
      };
      worker.on('message', (received: WorkerMessage | MessageBatch<WorkerMessage>) => unbatched(received, receive));
      worker.on('error', (err) =>
        fail(this.started ? `the plugin failed: ${err.message}` : `the plugin failed while starting: ${err.message}`),
      );
      worker.on('exit', (code) => {
        const wasEnded = this.ended;
        this.ended = true;
        this.stopWatches();
        this.rejectAnswers(new PluginHandlerError(`the plugin's worker exited (code ${code})`));
        for (const stream of this.streams.values()) stream.end(`the plugin's worker exited (code ${code})`);
        this.streams.clear();
        this.onStop?.();
        // A worker ended while starting, even on purpose (the apiserver stopping), settles start() now, not at its timeout.
        if (!this.started) fail(`the plugin's worker exited while starting (code ${code})`);
        else if (!wasEnded) this.host.crashed(`the plugin's worker exited (code ${code})`);
      });
    });
  }

  /** Forwards a request to route `routeId`; rejects with PluginHandlerError or PluginTimeoutError. */
  request(
    request: ForwardedRequest,
    timeoutMs: number,
    body?: RequestBodyStream,
    caller?: UserInfo,
  ): Promise<PluginAnswer> {
    const id = this.nextId + 1;
    if (body) this.bodies.set(id, body);
    if (caller) this.callers.set(id, caller);
    // `streamed` first: a property added after a spread builds a new hidden class per call on this Node.
    return this.forward({ streamed: body !== undefined, ...request }, timeoutMs).finally(() => {
      this.bodies.delete(id);
      this.callers.delete(id);
    });
  }

  private forward(request: ForwardedRequest, timeoutMs: number): Promise<PluginAnswer> {
    const worker = this.worker;
    if (!worker || this.ended) return Promise.reject(new PluginHandlerError('the plugin is not running'));
    const id = ++this.nextId;
    return new Promise<PluginAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.answers.delete(id);
        reject(new PluginTimeoutError(`the plugin did not answer within ${timeoutMs / 1000}s`));
        void this.failIfBlocked(request.routeId, timeoutMs);
      }, timeoutMs);
      this.answers.set(id, {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      const message: HostMessage = { type: 'request', id, ...request };
      this.outbox?.post(message, request.body ? [request.body.buffer as ArrayBuffer] : []);
    });
  }

  /**
   * After a route timed out: a worker whose thread does not answer a liveness check is blocked (an endless loop in
   * the handler, say). It would answer no request again and keep a core busy, so it is terminated and the plugin
   * fails. A handler that is merely waiting (a promise that never settles) leaves the thread free: nothing happens.
   */
  private async failIfBlocked(routeId: number, timeoutMs: number): Promise<void> {
    if (this.ended || (await this.liveness.check()) || this.ended) return;
    const route = this.routeNames.get(routeId) ?? `number ${routeId}`;
    void this.terminate();
    this.host.crashed(
      `route ${route} did not answer within ${timeoutMs / 1000}s and the plugin's thread stayed blocked ` +
        `(no answer to a liveness check within ${LIVENESS_TIMEOUT_MS / 1000}s); the thread was terminated`,
    );
  }

  /** Fails the plugin once its thread has been busy with no request for the busy limit (BusyWatch). */
  private watchBusy(worker: Worker, fail: (message: string) => void): void {
    if (!utilizationTrusted()) {
      this.host.log('warn', 'not watched for a busy thread: under a CPU profiler every thread reads as busy');
      return;
    }
    const watch = new BusyWatch(this.options.busyLimitMs);
    let previous = worker.performance.eventLoopUtilization();
    let forwarded = this.nextId;
    this.busyTimer = setInterval(() => {
      const now = worker.performance.eventLoopUtilization();
      const { utilization } = worker.performance.eventLoopUtilization(now, previous);
      const requests = forwarded !== this.nextId || this.answers.size > 0 || this.streams.size > 0;
      [previous, forwarded] = [now, this.nextId];
      const busy = watch.add({ utilization, requests, elapsedMs: BUSY_SAMPLE_MS });
      if (busy && !this.ended) fail(busy);
    }, BUSY_SAMPLE_MS);
    this.busyTimer.unref();
  }

  private stopWatches(): void {
    this.blockedMemory?.stop();
    clearInterval(this.busyTimer);
  }

  /** Runs the plugin's `stop(ctx)` for at most `timeoutMs`, then ends the worker. */
  async stop(timeoutMs: number): Promise<void> {
    const worker = this.worker;
    if (!worker || this.ended) return;
    const stopped = new Promise<void>((resolve) => {
      this.onStop = resolve;
    });
    this.outbox?.post({ type: 'stop' });
    const timer = setTimeout(() => void this.terminate(), timeoutMs);
    await stopped;
    clearTimeout(timer);
  }

  /** Ends the worker now, whatever it is doing. */
  async terminate(): Promise<void> {
    this.ended = true;
    this.stopWatches();
    await this.worker?.terminate();
  }

  private receive(message: WorkerMessage, fail: (message: string) => void): void {
    switch (message.type) {
      case 'log':
        this.host.log(message.level, message.message, message.fields);
        break;
      case 'warning':
        this.host.warn(message.message);
        break;
      case 'register-model':
        this.host.registerModel(message.model, message.indexes).then(
          () => this.reply(message.id),
          (err: Error) => this.refuse(message.id, err, fail),
        );
        break;
      case 'register-route':
        this.registerRoute(message, fail);
        break;
      case 'stopped':
        if (message.error) this.host.log('warn', `stop failed: ${message.error}`);
        void this.terminate();
        break;
      case 'pong':
        this.liveness.answered();
        break;
      case 'memory':
        this.watchMemory(message, fail);
        break;
      default:
        this.receiveExchange(message);
    }
  }

  /** A call or read of the plugin's clients, or a message about a route request's answer or body. */
  private receiveExchange(message: WorkerMessage): void {
    if (message.type === 'api-call') void this.answerApiCall(message);
    else if (message.type === 'api-read') void this.answerApiRead(message);
    else this.receiveAnswer(message);
  }

  /** Answers a `ctx.client` request through the host; a failure is the worker's `fetch` failing, never a crash. */
  private async answerApiCall(message: Extract<WorkerMessage, { type: 'api-call' }>): Promise<void> {
    const { id, method, url, headers, body, onBehalfOf } = message;
    let reply: HostMessage;
    try {
      if (!this.host.callApi) throw new Error('the apiserver does not answer plugins in process');
      const caller = this.callerOf(onBehalfOf);
      reply = { type: 'api-answer', id, ...(await this.host.callApi({ method, url, headers, body }, caller)) };
    } catch (err) {
      reply = { type: 'api-answer', id, error: (err as Error).message };
    }
    if (!this.ended) this.outbox?.post(reply);
  }

  /**
   * Answers a plain read through the host as values (`unserved` when the host does not: the client then sends it as
   * a request); a failure is the client's request failing, never a crash. The caller is the host's record of the
   * route request, never anything the message says.
   */
  private async answerApiRead(message: Extract<WorkerMessage, { type: 'api-read' }>): Promise<void> {
    const { id, read, onBehalfOf } = message;
    let reply: HostMessage;
    try {
      const caller = this.callerOf(onBehalfOf);
      const answer = this.host.readApi ? await this.host.readApi(read, caller) : { unserved: true as const };
      reply = { type: 'read-answer', id, answer: answerText(answer) };
    } catch (err) {
      reply = { type: 'read-answer', id, error: (err as Error).message };
    }
    if (!this.ended) this.outbox?.post(reply);
  }

  /**
   * Whom a `req.client` call of route request `onBehalfOf` acts for (undefined: a `ctx.client` call, the plugin's
   * own): only a request of this worker that is still unanswered; once answered (or timed out), never again.
   */
  private callerOf(onBehalfOf: number | undefined): UserInfo | undefined {
    if (onBehalfOf === undefined) return undefined;
    const caller = this.callers.get(onBehalfOf);
    if (caller === undefined)
      throw new Error(`request ${onBehalfOf} has been answered: req.client acts for its caller only until then`);
    return caller;
  }

  /** A handler's answer, or a chunk or the end of a streamed one, or its ask for the request body's next chunk. */
  private receiveAnswer(message: WorkerMessage): void {
    if (message.type === 'pull') {
      void this.sendBody(message.id);
    } else if (message.type === 'response') {
      this.answer(message);
    } else if (message.type === 'chunk') {
      this.streams.get(message.id)?.push(message.chunk);
    } else if (message.type === 'end') {
      this.streams.get(message.id)?.end(message.error);
      this.streams.delete(message.id);
    }
  }

  /** Stops a worker whose heap and Buffers together are past its memory limit: the plugin FAILED, naming the limit. */
  private watchMemory(report: { heapUsed: number; external: number }, fail: (message: string) => void): void {
    this.blockedMemory?.reported(report.heapUsed + report.external);
    const exceeded = memoryExceeded(report, this.options.memoryMb);
    if (exceeded && !this.ended) fail(exceeded);
  }

  private registerRoute(message: Extract<WorkerMessage, { type: 'register-route' }>, fail: (m: string) => void) {
    try {
      const { routeId, method, path, accept, contentTypes } = message;
      this.host.registerRoute(routeId, method, path, accept, contentTypes);
      this.routeNames.set(message.routeId, `${message.method} ${message.path}`);
      this.reply(message.id);
    } catch (err) {
      this.refuse(message.id, err as Error, fail);
    }
  }

  private refuse(id: number, err: Error, fail: (message: string) => void): void {
    this.reply(id, err.message);
    fail(err.message);
  }

  private answer(message: Extract<WorkerMessage, { type: 'response' }>): void {
    const answer = this.answers.get(message.id);
    this.answers.delete(message.id);
    if ('error' in message) {
      answer?.reject(new PluginHandlerError(message.error));
      return;
    }
    const { status, headers, body } = message;
    if (!message.streamed) return answer?.resolve({ status, headers, body });
    const id = message.id;
    const post = (m: HostMessage) => !this.ended && this.outbox?.post(m);
    const stream = new ResponseStream(
      () => post({ type: 'ack', id }),
      () => post({ type: 'cancel', id }),
    );
    if (answer) this.streams.set(id, stream);
    else stream.cancel();
    answer?.resolve({ status, headers, body, stream });
  }

  private async sendBody(id: number): Promise<void> {
    const body = this.bodies.get(id);
    const pulled = body ? await body.pull() : { done: true, error: 'the request is over' };
    const transfer = pulled.chunk ? [pulled.chunk.buffer as ArrayBuffer] : [];
    if (!this.ended) this.outbox?.post({ type: 'body', id, ...pulled }, transfer);
  }

  private reply(id: number, error?: string): void {
    if (!this.ended) this.outbox?.post({ type: 'reply', id, error });
  }

  private rejectAnswers(error: Error): void {
    for (const answer of this.answers.values()) answer.reject(error);
    this.answers.clear();
  }
}
