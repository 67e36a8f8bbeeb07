import type { ApiObject } from '../api/object';

/** The kinds of change a watch reports. `DELETED` carries the object's last state. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/**
 * One change of one object. `object.metadata.resourceVersion` is the revision
 * of the change (for `DELETED`, the revision of the removal). The object is
 * shared by every watcher of the type: treat it as read-only.
 */
export interface WatchEvent {
  type: WatchEventType;
  object: ApiObject;
  /**
   * For MODIFIED: the object's index values before the change (index name →
   * sorted values, as `indexValues` computes them; labels are in the
   * `metadata.labels` index as `key=value`). Lets a watch with selectors tell
   * an object that stopped matching (sent as DELETED) from one that never did.
   */
  previousIndexValues?: Record<string, string[]>;
}

/**
 * A consumer that takes a watch's events as they arrive instead of iterating
 * (`Watcher.listen`): one call per batch rather than a promise per event,
 * which matters when one process serves thousands of watchers.
 */
export interface WatchListener {
  /**
   * Events in revision order. Every event the backend hands over in one
   * synchronous run (e.g. one read of its change log) arrives in one call,
   * in a microtask, never inside the writer's call stack. Should not throw:
   * a throw ends the watch, and `onEnd` gets what was thrown.
   */
  onEvents(events: readonly WatchEvent[]): void;
  /**
   * The watch ended: with the error an iteration would have thrown (a
   * StorageError, e.g. Expired), or with none after `stop()`. Called once;
   * no `onEvents` follows it.
   */
  onEnd(error?: Error): void;
}

/**
 * A running watch, consumed in one of two ways, not both:
 *
 * - iterate it with `for await`: the iteration ends after `stop()`; it throws
 *   a StorageError with code Expired when the requested revision is no longer
 *   retained or the watcher let more than `watchBuffer` events pile up unread;
 * - or `listen()`: the same events and the same errors, pushed in batches.
 *   A listener takes every batch as it comes, so `watchBuffer` does not bound
 *   it: bounding what it keeps (a socket's backlog, say) is its own job.
 */
export interface Watcher extends AsyncIterable<WatchEvent> {
  /** Ends the watch; a pending `next()` resolves as done, a listener's `onEnd()` is called. Safe to call twice. */
  stop(): void;
  /** Delivers the events to `listener` instead of through iteration. Call it at most once, before reading. */
  listen(listener: WatchListener): void;
}
