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
 * A running watch: iterate it with `for await`. The iteration ends after
 * `stop()`; it throws a StorageError with code Expired when the requested
 * revision is no longer retained or the watcher fell too far behind.
 */
export interface Watcher extends AsyncIterable<WatchEvent> {
  /** Ends the watch; a pending `next()` resolves as done. Safe to call twice. */
  stop(): void;
}
