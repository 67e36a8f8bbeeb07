import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { INDEX_WORKER_CODE, SIGNAL } from './index-worker-code';
import type { IndexFunctionSource } from './index-sandbox';

/** How long a new index worker may take to compile its functions and be ready. */
export const INDEX_WORKER_START_LIMIT_MS = 5000;

/** The heap an index worker may use: a function that allocates past it ends its worker, not the apiserver. */
export const INDEX_WORKER_MEMORY_MB = 64;

// Atomics.waitAsync (ES2024) is in Node 20 but not in the TypeScript library this project compiles against.
type WaitAsync = (
  array: Int32Array,
  index: number,
  value: number,
  timeoutMs: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

interface Thread {
  worker: Worker;
  /** One Int32: SIGNAL.STARTING, then IDLE or FAILED; REQUEST while a call waits. */
  signal: Int32Array;
  port: MessagePort;
}

/**
 * One thread evaluating one plugin model's index functions (ADR 0022),
 * called synchronously from the apiserver's thread: the object's JSON goes
 * through a MessagePort, the apiserver waits on a shared Int32Array with a
 * deadline (`Atomics.wait`), then reads the answer from the port. A thread
 * that misses the deadline (a loop) or dies (out of memory) is terminated
 * and replaced; the call that met it gets no answer.
 */
export class IndexWorker {
  private thread?: Thread;
  private closed = false;

  private constructor(
    private readonly plugin: string,
    private readonly functions: IndexFunctionSource[],
    private readonly timeoutMs: number,
  ) {}

  /** A worker with its functions compiled; rejects with the compile error, or if it does not start in time. */
  static async start(plugin: string, functions: IndexFunctionSource[], timeoutMs: number): Promise<IndexWorker> {
    const created = new IndexWorker(plugin, functions, timeoutMs);
    const thread = created.spawn();
    const waited = waitAsync(thread.signal, 0, SIGNAL.STARTING, INDEX_WORKER_START_LIMIT_MS);
    if (waited.async) await waited.value;
    thread.worker.unref();
    const state = Atomics.load(thread.signal, 0);
    if (state === SIGNAL.IDLE) return created;
    created.close();
    if (state === SIGNAL.FAILED) throw new Error(receiveMessageOnPort(thread.port)?.message as string);
    throw new Error(`the index functions did not compile within ${INDEX_WORKER_START_LIMIT_MS}ms`);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Every function's outcome for the object `json`, as the JSON text the worker answers; undefined when the worker
   * did not answer within the time limit or could not be (re)started, in which case it has been replaced.
   */
  call(json: string): string | undefined {
    const thread = this.ready();
    if (!thread) return undefined;
    thread.port.postMessage(json);
    Atomics.store(thread.signal, 0, SIGNAL.REQUEST);
    Atomics.notify(thread.signal, 0);
    if (Atomics.wait(thread.signal, 0, SIGNAL.REQUEST, this.timeoutMs) === 'timed-out') {
      this.stop();
      return undefined;
    }
    return receiveMessageOnPort(thread.port)?.message as string | undefined;
  }

  /** Ends the worker; later calls answer nothing. */
  close(): void {
    this.closed = true;
    this.stop();
  }

  /** The worker, started anew if the last one ended, once it is IDLE; undefined if it does not get there. */
  private ready(): Thread | undefined {
    if (this.closed) return undefined;
    const thread = this.thread ?? this.spawn();
    thread.worker.unref();
    Atomics.wait(thread.signal, 0, SIGNAL.STARTING, INDEX_WORKER_START_LIMIT_MS);
    if (Atomics.load(thread.signal, 0) === SIGNAL.IDLE) return thread;
    this.stop();
    return undefined;
  }

  private spawn(): Thread {
    const signal = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(INDEX_WORKER_CODE, {
      eval: true,
      workerData: { signal, port: port2, plugin: this.plugin, functions: this.functions },
      transferList: [port2],
      resourceLimits: { maxOldGenerationSizeMb: INDEX_WORKER_MEMORY_MB },
      env: {},
    });
    // The worker's end (an error, out of memory) is seen by the next call. It is unref'd once started: it never keeps
    // the apiserver running.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      if (this.thread?.worker === worker) this.thread = undefined;
    });
    this.thread = { worker, signal, port: port1 };
    return this.thread;
  }

  private stop(): void {
    const thread = this.thread;
    this.thread = undefined;
    if (!thread) return;
    thread.port.close();
    void thread.worker.terminate().catch(() => undefined);
  }
}
