import { StorageError, expired } from '../errors';
import type { WatchEvent } from '../watch';
import { WatcherQueue } from '../watcher-queue';

/** Sizes of a change log: what it keeps and how far a watcher may lag. */
export interface ChangeLogLimits {
  /** Events kept replayable (the newest ones). */
  retention: number;
  /** Live events a watcher may have queued before it is ended with Expired. */
  watchBuffer: number;
}

interface Change {
  revision: number;
  event: WatchEvent;
}

const REVISION = /^(0|[1-9][0-9]*)$/;

/**
 * One type's change log: the newest `retention` events, for watches that
 * resume from a revision, and the fan-out of each new event to every live
 * watcher, each with its own bounded queue. Events must be appended in
 * revision order, one per revision, and are shared by every watcher (the
 * caller freezes them).
 */
export class ChangeLog {
  private changes: Change[] = [];
  private changesAt = 0;
  private readonly watchers = new Set<WatcherQueue<WatchEvent>>();

  constructor(
    private readonly type: string,
    private readonly limits: ChangeLogLimits,
  ) {}

  /** Live watchers (for tests and diagnostics). */
  get watcherCount(): number {
    return this.watchers.size;
  }

  /** Records the event of a write at `revision` and queues it for every watcher. */
  append(revision: number, event: WatchEvent): void {
    this.changes.push({ revision, event });
    this.trim();
    for (const watcher of this.watchers) watcher.push(event);
  }

  /**
   * Starts a watcher. Without `fromRevision` it sees the events appended from
   * now on; with it, first every retained event after that revision, then the
   * live ones, with nothing lost or repeated between the two. A revision older
   * than the retained log (or not a revision at all) makes its first read throw.
   *
   * @param currentRevision the type's revision now, which the log has seen every event up to
   */
  watch(fromRevision: string | undefined, currentRevision: number): WatcherQueue<WatchEvent> {
    let backlog: WatchEvent[] = [];
    let failure: Error | undefined;
    if (fromRevision !== undefined) {
      const oldest = this.changesAt < this.changes.length ? this.changes[this.changesAt].revision : currentRevision + 1;
      const from = REVISION.test(fromRevision) ? Number(fromRevision) : NaN;
      if (Number.isNaN(from)) {
        failure = new StorageError('Invalid', `"${fromRevision}" is not a revision of ${this.type}`, {
          type: this.type,
        });
      } else if (from < oldest - 1) {
        failure = expired(`too old resource version: ${from} (${oldest - 1})`);
      } else {
        backlog = this.eventsAfter(from);
      }
    }
    const queue: WatcherQueue<WatchEvent> = new WatcherQueue<WatchEvent>({
      capacity: this.limits.watchBuffer,
      overflowError: () =>
        expired(`watch of ${this.type} fell more than ${this.limits.watchBuffer} events behind; watch again`),
      backlog,
      onEnd: () => this.watchers.delete(queue),
    });
    if (failure !== undefined) queue.fail(failure);
    else this.watchers.add(queue);
    return queue;
  }

  /** Ends every watcher (the storage is closing). */
  stopAll(): void {
    for (const watcher of [...this.watchers]) watcher.stop();
  }

  private eventsAfter(revision: number): WatchEvent[] {
    let lo = this.changesAt;
    let hi = this.changes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.changes[mid].revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    return this.changes.slice(lo).map((change) => change.event);
  }

  /** Forgets events beyond the retention; the array is compacted now and then, not per event. */
  private trim(): void {
    const excess = this.changes.length - this.changesAt - this.limits.retention;
    if (excess > 0) this.changesAt += excess;
    if (this.changesAt > 1024 && this.changesAt * 2 > this.changes.length) {
      this.changes = this.changes.slice(this.changesAt);
      this.changesAt = 0;
    }
  }
}
