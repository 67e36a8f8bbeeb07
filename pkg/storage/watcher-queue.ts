/** How a WatcherQueue is set up. */
export interface WatcherQueueOptions<T> {
  /** Most pushed items that may wait unconsumed; the push past it ends the queue with `overflowError()`. */
  capacity: number;
  /** The error the consumer gets on its next read after an overflow (an Expired StorageError for a watch). */
  overflowError: () => Error;
  /** Items delivered before any pushed item and not counted against `capacity` (a watch's replay). */
  backlog?: readonly T[];
  /** Called once when the queue ends for any reason (stop, overflow, fail): unsubscribe the producer here. */
  onEnd?: () => void;
}

/** A consumer that takes items in batches as they are pushed (`WatcherQueue.listen`). */
export interface QueueListener<T> {
  /** The items pushed since the last delivery (see `listen`), in order. Should not throw: a throw ends the queue with it. */
  onEvents(items: readonly T[]): void;
  /** The queue ended: with its failure, or with none after `stop()`. Called once. */
  onEnd(error?: Error): void;
}

interface Waiter<T> {
  resolve: (result: IteratorResult<T>) => void;
  reject: (error: Error) => void;
}

/**
 * An async-iterable queue between one producer that must never block (a
 * change log fanning out to many watchers) and one consumer (`for await`).
 * Backend-neutral: any backend's watcher can be one.
 *
 * - `push` hands an item over; a consumer's pending read resolves
 *   asynchronously, never inside the producer's call stack.
 * - A consumer that lets more than `capacity` items pile up is cut off: the
 *   queue is emptied and its next read throws `overflowError()`, so a slow
 *   watcher costs bounded memory and never slows the producer.
 * - `fail(error)` ends it the same way with any error; `stop()` ends it
 *   quietly (a pending read resolves as done); both discard what is queued.
 * - Instead of being iterated it can be `listen`ed to: what is pushed until
 *   its delivery runs is handed over in one batch, and the end is reported
 *   once. A delivery runs in a microtask, or, when more than a hundred
 *   listeners have one waiting, in a later turn of the event loop (see
 *   `scheduleDelivery`). A listener takes everything, so `capacity` is not
 *   applied to it.
 *
 * @example
 * const q = new WatcherQueue<number>({ capacity: 100, overflowError: () => new Error('too slow') });
 * q.push(1);
 * for await (const n of q) { console.log(n); q.stop(); }
 */
export class WatcherQueue<T> implements AsyncIterableIterator<T> {
  private backlog: readonly T[];
  private backlogAt = 0;
  private items: T[] = [];
  private itemsAt = 0;
  private readonly waiters: Waiter<T>[] = [];
  private state: 'open' | 'failed' | 'ended' = 'open';
  private error: Error | undefined;
  private listener: QueueListener<T> | undefined;
  /** Set while a listener's delivery is scheduled. */
  private flushing = false;
  /** Whether the listener has been told of the end. */
  private endReported = false;

  constructor(private readonly options: WatcherQueueOptions<T>) {
    this.backlog = options.backlog ?? [];
  }

  /** Whether the queue still accepts items (not stopped, failed or overflowed). */
  get open(): boolean {
    return this.state === 'open';
  }

  /** Pushed items waiting for the consumer (the backlog not counted). */
  get queued(): number {
    return this.items.length - this.itemsAt;
  }

  /** Hands an item to the consumer. Ignored once the queue has ended. */
  push(item: T): void {
    if (this.state !== 'open') return;
    if (this.listener !== undefined) {
      this.items.push(item);
      this.scheduleFlush();
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter !== undefined) {
      waiter.resolve({ value: item, done: false });
      return;
    }
    if (this.queued >= this.options.capacity) {
      this.fail(this.options.overflowError());
      return;
    }
    this.items.push(item);
  }

  /** Ends the queue with an error: queued items are dropped and the next read throws it (or the listener gets it). */
  fail(error: Error): void {
    if (this.state !== 'open') return;
    this.state = 'failed';
    this.error = error;
    this.discard();
    if (this.listener !== undefined) {
      this.scheduleFlush();
    } else {
      const waiter = this.waiters.shift();
      if (waiter !== undefined) this.throwTo(waiter);
      this.settleWaiters();
    }
    this.options.onEnd?.();
  }

  /** Ends the queue quietly: queued items are dropped and reads resolve as done. Safe to call twice. */
  stop(): void {
    if (this.state === 'ended') return;
    // A listener not yet told of a failure is told of it, not of a quiet stop.
    if (this.state === 'failed' && this.listener !== undefined) return;
    const wasOpen = this.state === 'open';
    this.state = 'ended';
    this.error = undefined;
    this.discard();
    this.settleWaiters();
    if (this.listener !== undefined) this.scheduleFlush();
    if (wasOpen) this.options.onEnd?.();
  }

  /**
   * Hands every item to `listener` instead of to readers: the backlog and
   * anything queued first, then what is pushed until each delivery as one batch.
   * A queue that has already ended reports its end. Call it at most once,
   * and not after reading.
   */
  listen(listener: QueueListener<T>): void {
    if (this.listener !== undefined || this.waiters.length > 0 || this.backlogAt > 0) {
      throw new Error('a watcher is either listened to once or iterated, not both');
    }
    this.listener = listener;
    this.scheduleFlush();
  }

  /** The next item; waits for one when none is queued. */
  next(): Promise<IteratorResult<T>> {
    if (this.backlogAt < this.backlog.length) {
      return Promise.resolve({ value: this.backlog[this.backlogAt++], done: false });
    }
    if (this.queued > 0) return Promise.resolve({ value: this.shift(), done: false });
    if (this.state === 'ended') return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      const waiter = { resolve, reject };
      if (this.state === 'failed') this.throwTo(waiter);
      else this.waiters.push(waiter);
    });
  }

  /** What `for await` calls when the loop is left early: stops the queue. */
  return(): Promise<IteratorResult<T>> {
    this.stop();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = true;
    scheduleDelivery(() => this.flush());
  }

  /** Delivers what is queued to the listener, then the end if the queue has ended. */
  private flush(): void {
    this.flushing = false;
    const listener = this.listener;
    if (listener === undefined || this.endReported) return;
    const batch = this.takeQueued();
    if (batch.length > 0 && this.state === 'open') {
      try {
        listener.onEvents(batch);
      } catch (err) {
        // This runs in a microtask: a throw would reach no one but the process. It ends the queue instead.
        this.fail(err instanceof Error ? err : new Error(String(err)));
      }
    }
    if (this.state !== 'open') this.reportEnd(listener);
  }

  /** Everything queued, the backlog first, removed from the queue. */
  private takeQueued(): T[] {
    const pushed = this.itemsAt === 0 ? this.items : this.items.slice(this.itemsAt);
    // A replay can be long: concat, not push(...), which has an argument limit.
    const batch = this.backlogAt < this.backlog.length ? this.backlog.slice(this.backlogAt).concat(pushed) : pushed;
    this.discard();
    return batch;
  }

  private reportEnd(listener: QueueListener<T>): void {
    this.endReported = true;
    const error = this.state === 'failed' ? this.error : undefined;
    this.state = 'ended';
    this.error = undefined;
    listener.onEnd(error);
  }

  private shift(): T {
    const item = this.items[this.itemsAt++];
    // Drop consumed items now and then, not on every read: Array.shift is O(n).
    if (this.itemsAt >= 1024 && this.itemsAt * 2 >= this.items.length) {
      this.items = this.items.slice(this.itemsAt);
      this.itemsAt = 0;
    }
    return item;
  }

  private discard(): void {
    this.backlog = [];
    this.backlogAt = 0;
    this.items = [];
    this.itemsAt = 0;
  }

  /** Delivers the failure to one reader; after it the queue is simply ended. */
  private throwTo(waiter: Waiter<T>): void {
    const error = this.error ?? new Error('watch failed');
    this.state = 'ended';
    this.error = undefined;
    waiter.reject(error);
  }

  private settleWaiters(): void {
    if (this.state !== 'ended') return;
    for (const waiter of this.waiters.splice(0)) waiter.resolve({ value: undefined, done: true });
  }
}

/** How many listeners' deliveries run in one turn of the event loop (see `scheduleDelivery`). */
const DELIVERIES_PER_TURN = 100;
/** Deliveries waiting to run, from `deliveredAt` on. */
const deliveries: (() => void)[] = [];
let deliveredAt = 0;
/** Whether a slice is about to run (in a microtask or a later turn): one runs at a time. */
let sliceScheduled = false;
/** How many deliveries were ever scheduled, and how many have run: `deliveriesDone` waits for a count. */
let scheduledCount = 0;
let ranCount = 0;
/** Callers of `deliveriesDone`, in the order of the counts they wait for. */
const doneWaiters: { upTo: number; resolve: () => void }[] = [];

/**
 * Runs a listener's delivery: the first hundred scheduled together in a microtask, as one change fanned out to a few
 * watchers always was, each further hundred in a turn of the event loop of its own. A change fanned out to thousands
 * of watchers then lets the requests and replies that arrive meanwhile be served between its slices, instead of
 * waiting for the whole fan-out; a watcher whose delivery is still waiting takes the next change in the same batch.
 */
function scheduleDelivery(deliver: () => void): void {
  deliveries.push(deliver);
  scheduledCount++;
  if (sliceScheduled) return;
  sliceScheduled = true;
  queueMicrotask(deliverSlice);
}

/** Resolves once every delivery scheduled before the call has run (at once when none waits). */
export function deliveriesDone(): Promise<void> {
  if (ranCount >= scheduledCount) return Promise.resolve();
  return new Promise((resolve) => doneWaiters.push({ upTo: scheduledCount, resolve }));
}

function deliverSlice(): void {
  try {
    const end = Math.min(deliveredAt + DELIVERIES_PER_TURN, deliveries.length);
    while (deliveredAt < end) {
      ranCount++;
      deliveries[deliveredAt++]();
    }
  } finally {
    // What has run is dropped as it goes: under a steady load the list may never run empty.
    deliveries.splice(0, deliveredAt);
    deliveredAt = 0;
    if (deliveries.length > 0) setImmediate(deliverSlice);
    else sliceScheduled = false;
    while (doneWaiters.length > 0 && doneWaiters[0].upTo <= ranCount) doneWaiters.shift()!.resolve();
  }
}
