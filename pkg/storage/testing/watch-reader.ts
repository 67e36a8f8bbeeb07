import type { ApiObject } from '../../api/object';
import type { Watcher, WatchEvent, WatchEventType } from '../watch';
import { WatcherQueue } from '../watcher-queue';
import { DeadlineError, DEFAULT_DEADLINE_MS, withDeadline } from './deadline';

/** An event reduced to what cases compare: type, object name, revision. */
export type EventSummary = [type: WatchEventType, name: string | undefined, resourceVersion: string | undefined];

/** `[type, name, resourceVersion]` of each event, so that a mismatch prints as a readable diff. */
export const summarize = (events: readonly WatchEvent[]): EventSummary[] =>
  events.map((e) => [e.type, e.object.metadata.name, e.object.metadata.resourceVersion]);

/** How a case consumes a watch: by iteration, or through `Watcher.listen`. */
export type WatchConsumption = 'iterate' | 'listen';

/**
 * The events a watcher hands its listener, iterable again, so that every
 * watch case can check `listen` exactly as it checks iteration: batches are
 * queued without bound, the end (with its error) ends the iteration.
 */
export function listenedWatcher(watcher: Watcher): Watcher {
  const received = new WatcherQueue<WatchEvent>({
    capacity: Number.POSITIVE_INFINITY,
    overflowError: () => new Error('unreachable: the queue is unbounded'),
    onEnd: () => watcher.stop(),
  });
  watcher.listen({
    onEvents: (events) => {
      for (const event of events) received.push(event);
    },
    onEnd: (error) => (error === undefined ? received.stop() : received.fail(error)),
  });
  return received;
}

/**
 * Reads a Watcher with a deadline on every read, so that a missing event
 * fails the test with a message instead of hanging it. It keeps one iterator
 * and at most one pending `next()`: a read that timed out is resumed by the
 * next read rather than issuing a second `next()`.
 *
 * @example const [added] = await reader.take(1);
 */
export class WatchReader {
  private readonly iterator: AsyncIterator<WatchEvent>;
  private pending: Promise<IteratorResult<WatchEvent>> | undefined;

  constructor(
    private readonly watcher: Watcher,
    private readonly deadlineMs = DEFAULT_DEADLINE_MS,
  ) {
    this.iterator = watcher[Symbol.asyncIterator]();
  }

  /** The next `count` events; rejects if the watch ends, throws, or the deadline passes first. */
  async take(count: number): Promise<WatchEvent[]> {
    const events: WatchEvent[] = [];
    while (events.length < count) {
      const result = await this.next(`event ${events.length + 1} of ${count}`);
      if (result.done) throw new Error(`the watch ended after ${events.length} of ${count} expected events`);
      events.push(result.value);
    }
    return events;
  }

  /** Resolves when the iteration ends normally; rejects on an event, an error, or the deadline. */
  async expectEnd(): Promise<void> {
    const result = await this.next('the end of the watch');
    if (!result.done) {
      throw new Error(`expected the watch to end, got ${JSON.stringify(summarize([result.value])[0])}`);
    }
  }

  /**
   * Reads until the iteration throws and returns what it threw with the events
   * delivered before. Rejects if the watch ends normally, if more than
   * `maxEvents` arrive first, or on the deadline.
   */
  async readUntilError(maxEvents: number): Promise<{ events: WatchEvent[]; error: unknown }> {
    const events: WatchEvent[] = [];
    for (;;) {
      let result: IteratorResult<WatchEvent>;
      try {
        result = await this.next('the watch to fail');
      } catch (error) {
        if (error instanceof DeadlineError) throw error;
        return { events, error };
      }
      if (result.done) throw new Error(`the watch ended without an error after ${events.length} events`);
      events.push(result.value);
      if (events.length > maxEvents) throw new Error(`expected the watch to fail within ${maxEvents} events`);
    }
  }

  /** Stops the underlying watcher. */
  stop(): void {
    this.watcher.stop();
  }

  private next(what: string): Promise<IteratorResult<WatchEvent>> {
    if (!this.pending) {
      const pending = this.iterator.next();
      const clear = () => {
        if (this.pending === pending) this.pending = undefined;
      };
      // Registered before any await of `pending`, so it has run by the time a read returns.
      pending.then(clear, clear);
      this.pending = pending;
    }
    return withDeadline(this.pending, this.deadlineMs, `watch: ${what}`);
  }
}

/**
 * Asserts that a watch delivered nothing since its last read event: makes a
 * marker write and expects the marker's ADDED to be the very next event.
 * Watches deliver in revision order, so this needs no sleep.
 *
 * @example await expectNoEventsBefore(reader, () => storage.create(type, widget('marker')));
 */
export async function expectNoEventsBefore(reader: WatchReader, writeMarker: () => Promise<ApiObject>): Promise<void> {
  const marker = await writeMarker();
  const events = await reader.take(1);
  expect(summarize(events)).toEqual([['ADDED', marker.metadata.name, marker.metadata.resourceVersion]]);
}
