import { expired } from '../errors';
import type { WatchEvent, Watcher, WatchListener } from '../watch';
import { WatcherQueue } from '../watcher-queue';
import type { StreamEntry } from './stream-events';

/**
 * One watcher of a type's change stream: its queue (bounded while iterated)
 * and how far it has been served. It starts catching up from its start revision (`live`
 * false) and then takes the live feed (`live` true); both only ever hand it
 * revisions after `cursor`, so nothing is repeated.
 */
export class Subscription {
  /** The last revision handed to the watcher (its start revision until the first event). */
  cursor = -1;
  /** The stream entry of the last event handed over, to check after a failover that Redis still has it. */
  lastEntry: StreamEntry | undefined;
  /** Whether the stream reader's live feed serves it (it has caught up). */
  live = false;
  /** What the consumer iterates. */
  readonly watcher: Watcher;

  private readonly queue: WatcherQueue<WatchEvent>;
  private roomWaiters: (() => void)[] = [];

  constructor(
    private readonly capacity: number,
    type: string,
    onEnd: (s: Subscription) => void,
  ) {
    this.queue = new WatcherQueue<WatchEvent>({
      capacity,
      overflowError: () => expired(`watch of ${type} fell more than ${capacity} events behind; watch again`),
      onEnd: () => {
        this.wakeRoomWaiters();
        onEnd(this);
      },
    });
    this.watcher = new SubscriptionWatcher(this.queue, () => {
      if (this.queue.queued * 2 <= this.capacity) this.wakeRoomWaiters();
    });
  }

  /** Whether the watcher still takes events. */
  get open(): boolean {
    return this.queue.open;
  }

  /** Events queued and not yet read. */
  get queued(): number {
    return this.queue.queued;
  }

  /** Hands over the event of `revision`; overflowing the buffer ends the watcher with Expired. */
  push(event: WatchEvent, revision: number, entry: StreamEntry): void {
    this.queue.push(event);
    this.cursor = revision;
    this.lastEntry = entry;
  }

  /** Ends the watcher with an error its next read throws. */
  fail(error: Error): void {
    this.queue.fail(error);
  }

  /** Ends the watcher quietly. */
  stop(): void {
    this.queue.stop();
  }

  /** Resolves once the consumer has read the queue down to half its capacity, or the watcher ended. */
  waitForRoom(): Promise<void> {
    if (!this.open || this.queued * 2 <= this.capacity) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  private wakeRoomWaiters(): void {
    const waiters = this.roomWaiters;
    this.roomWaiters = [];
    for (const wake of waiters) wake();
  }
}

/** The Watcher over a subscription's queue, telling the subscription whenever the consumer reads (or is handed a batch). */
class SubscriptionWatcher implements Watcher, AsyncIterableIterator<WatchEvent> {
  constructor(
    private readonly queue: WatcherQueue<WatchEvent>,
    private readonly onRead: () => void,
  ) {}

  next(): Promise<IteratorResult<WatchEvent>> {
    const result = this.queue.next();
    this.onRead();
    return result;
  }

  return(): Promise<IteratorResult<WatchEvent>> {
    return this.queue.return();
  }

  stop(): void {
    this.queue.stop();
  }

  listen(listener: WatchListener): void {
    this.queue.listen({
      onEvents: (events) => {
        try {
          listener.onEvents(events);
        } finally {
          this.onRead();
        }
      },
      onEnd: (error) => listener.onEnd(error),
    });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<WatchEvent> {
    return this;
  }
}
