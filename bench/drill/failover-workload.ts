import type { ApiObject } from '../../pkg/api/object';
import { isStorageError } from '../../pkg/storage/errors';
import type { ResourceType, Storage } from '../../pkg/storage/interface';
import { Backoff } from '../../pkg/util/backoff';

/**
 * The storage-level workload of the failover drill: writers that increment
 * counters by read-modify-write (an acknowledged increment is the counter's
 * value at its revision), and watchers that record every event they are
 * handed, and on Expired list again and watch on. Afterwards `verify` holds
 * both against the change stream Redis kept.
 */

/** One acknowledged write: the counter object, its value, the revision it was written at. */
export interface AcknowledgedWrite {
  name: string;
  value: number;
  revision: number;
  at: number;
}

/** What one watch (from its start to its end) was handed. */
export interface WatchSegment {
  events: { name: string; value: number; revision: number }[];
  /** How it ended: Expired (the watcher listed again), or stopped by the workload. */
  end: 'expired' | 'stopped';
}

/** A stream entry Redis kept: the object's name and counter at a revision. */
export type SurvivingEntry = { name: string; value: number };

export const counterOf = (object: ApiObject): number => Number((object.spec as { counter?: number }).counter ?? 0);

/** One writer per counter of `type` (created first) until `stop()`; failures are retried with backoff. */
export class CounterWriters {
  readonly acknowledged: AcknowledgedWrite[] = [];
  /** Writes that failed with Unavailable (outcome unknown or not written), with when they failed. */
  readonly failures: { at: number; message: string }[] = [];
  /** How long each writer went without a successful write, from its first failure to its next success (ms). */
  readonly outages: number[] = [];
  private stopped = false;
  private readonly done: Promise<void>[] = [];

  constructor(
    private readonly storage: Storage,
    private readonly type: ResourceType,
    /** The counters' names, one writer each. */
    private readonly names: readonly string[],
  ) {}

  /** Creates the counters and starts their writers. */
  async start(): Promise<void> {
    for (const name of this.names) {
      await this.storage.create(this.type, {
        apiVersion: 'v1',
        kind: 'Counter',
        metadata: { name },
        spec: { counter: 0 },
      });
    }
    for (const name of this.names) this.done.push(this.loop(name));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.done);
  }

  private async loop(name: string): Promise<void> {
    const backoff = new Backoff(20, 200);
    let failingSince: number | undefined;
    while (!this.stopped) {
      try {
        const written = await this.storage.update(this.type, name, (o) => ({
          ...o,
          spec: { counter: counterOf(o) + 1 },
        }));
        const revision = Number(written.metadata.resourceVersion);
        const at = Date.now();
        this.acknowledged.push({ name, value: counterOf(written), revision, at });
        if (failingSince !== undefined) this.outages.push(at - failingSince);
        failingSince = undefined;
        backoff.reset();
      } catch (err) {
        if (!isStorageError(err, 'Unavailable')) throw err;
        failingSince ??= Date.now();
        this.failures.push({ at: Date.now(), message: err.message });
        await backoff.wait();
      }
    }
  }
}

/** A watcher of `type` from `fromRevision` that watches again after Expired, until `stop()`. */
export class RecordingWatcher {
  readonly segments: WatchSegment[] = [];
  /** The last revision handed over (or listed at, after an Expired). */
  position: number;
  private stopped = false;
  private current: ReturnType<Storage['watch']> | undefined;
  private readonly done: Promise<void>;

  constructor(
    private readonly storage: Storage,
    private readonly type: ResourceType,
    fromRevision: number,
  ) {
    this.position = fromRevision;
    this.done = this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.current?.stop();
    await this.done;
  }

  private async loop(): Promise<void> {
    const backoff = new Backoff(20, 200);
    while (!this.stopped) {
      const segment: WatchSegment = { events: [], end: 'stopped' };
      this.segments.push(segment);
      this.current = this.storage.watch(this.type, { fromRevision: String(this.position) });
      try {
        for await (const event of this.current) {
          const revision = Number(event.object.metadata.resourceVersion);
          segment.events.push({ name: event.object.metadata.name ?? '', value: counterOf(event.object), revision });
          this.position = revision;
        }
        return;
      } catch (err) {
        if (!isStorageError(err, 'Expired')) throw err;
        segment.end = 'expired';
      }
      // Expired: list again (retrying while Redis is unavailable) and watch from the list's revision.
      for (;;) {
        try {
          this.position = Number((await this.storage.list(this.type, { limit: 1 })).revision);
          break;
        } catch (err) {
          if (this.stopped) return;
          if (!isStorageError(err, 'Unavailable')) throw err;
          await backoff.wait();
        }
      }
    }
  }
}

/** What the drill found: the counts it prints and the tests assert. */
export interface FailoverVerdict {
  acknowledged: number;
  /** Acknowledged writes the surviving stream does not have at their revision with their value. */
  lost: AcknowledgedWrite[];
  /** Events handed over that Redis no longer has, which did not end their watch with Expired. */
  wrongEvents: number;
  /** Events handed over that Redis no longer has, after which their watch ended with Expired (as it must). */
  retractedEvents: number;
  /** Revisions a watch jumped over, and revisions handed twice (or back) within one watch. */
  skipped: number;
  repeated: number;
  /** Expired ends of watches. */
  expiredWatches: number;
  /**
   * Each skip or repeat as the watcher saw it: which watcher and segment, and the revisions around it
   * (`r1 r2 [r3] r4`, the bracketed one out of order), so that a failure shows what happened.
   */
  breaks: string[];
}

/**
 * Holds the writers' acknowledgements and the watchers' events against the
 * stream Redis kept (`surviving`: revision → entry).
 */
export function verifyFailover(
  writes: readonly AcknowledgedWrite[],
  watchers: readonly { segments: readonly WatchSegment[] }[],
  surviving: ReadonlyMap<number, SurvivingEntry>,
): FailoverVerdict {
  const lost = writes.filter((w) => {
    const kept = surviving.get(w.revision);
    return kept === undefined || kept.name !== w.name || kept.value !== w.value;
  });
  const verdict = { wrongEvents: 0, retractedEvents: 0, skipped: 0, repeated: 0, expiredWatches: 0 };
  const breaks: string[] = [];
  for (const [w, watcher] of watchers.entries()) {
    for (const [s, segment] of watcher.segments.entries()) {
      if (segment.end === 'expired') verdict.expiredWatches++;
      const order = orderOf(segment.events);
      verdict.skipped += order.skipped;
      verdict.repeated += order.repeated;
      breaks.push(...order.breaks.map((at) => `watcher ${w} segment ${s}: ${around(segment.events, at)}`));
      const firstGone = segment.events.findIndex((event) => {
        const kept = surviving.get(event.revision);
        return kept === undefined || kept.name !== event.name || kept.value !== event.value;
      });
      if (firstGone < 0) continue;
      // Events Redis lost may only be the last ones of a watch that then ended with Expired.
      const tail = segment.events.length - firstGone;
      if (segment.end === 'expired') verdict.retractedEvents += tail;
      else verdict.wrongEvents += tail;
    }
  }
  return { acknowledged: writes.length, lost, ...verdict, breaks };
}

/** Revisions one watch jumped over and handed again (or back), and where each happened. */
function orderOf(events: WatchSegment['events']): { skipped: number; repeated: number; breaks: number[] } {
  const order = { skipped: 0, repeated: 0, breaks: [] as number[] };
  for (let at = 1; at < events.length; at++) {
    const [previous, revision] = [events[at - 1].revision, events[at].revision];
    if (revision <= previous) order.repeated++;
    else if (revision > previous + 1) order.skipped += revision - previous - 1;
    else continue;
    order.breaks.push(at);
  }
  return order;
}

/** The revisions of the events around `at`, `at`'s in brackets. */
function around(events: WatchSegment['events'], at: number): string {
  const from = Math.max(0, at - 3);
  return events
    .slice(from, at + 3)
    .map((e, i) => (from + i === at ? `[${e.revision} ${e.name}=${e.value}]` : `${e.revision}`))
    .join(' ');
}
