import { StorageError, expired, isStorageError } from '../errors';
import type { ResourceType } from '../interface';
import type { Watcher } from '../watch';
import { deliveriesDone } from '../watcher-queue';
import { redisRetryBackoff, translateError, type RedisClient } from './connection';
import type { TypeKeys } from './keys';
import { decodeEvent, revisionOfId, type StreamEntry } from './stream-events';
import type { RedisOutageLog } from './outage-log';
import { Subscription } from './subscription';

/** Entries one XREAD or XRANGE asks for at most. */
const READ_COUNT = 1_000;
/** How long one XREAD blocks; the loop then simply reads again. */
const BLOCK_MS = 5_000;

const REVISION = /^(0|[1-9][0-9]*)$/;

/** What a stream reader needs from the storage. */
export interface StreamReaderOptions {
  type: ResourceType;
  keys: TypeKeys;
  /** The storage's command connection, for start revisions and catch-up reads (XRANGE). */
  client: RedisClient;
  /** Opens the reader's own connection for its blocking XREAD. */
  openConnection: () => RedisClient;
  /** Events a watcher may have queued (`watchBuffer`). */
  watchBuffer: number;
  /** Where the loop reports losing Redis and having it back (logged once per outage). */
  outages: RedisOutageLog;
  /** Called once the reader has stopped (its last watcher left, or close). */
  onStopped: (reader: StreamReader) => void;
}

/**
 * The one reading loop of a type's change stream in this process, and its
 * fan-out. The loop blocks in XREAD on its own connection, starting after
 * the last revision it read, and hands each entry, decoded and frozen once,
 * to every live watcher. A new watcher first catches up with XRANGE from
 * its start revision on the command connection, then joins the live feed;
 * both serve it only revisions after what it already has, so there are no
 * gaps and no duplicates. A lost connection is retried with backoff and the
 * loop resumes where it was. An expensive fan-out (thousands of watchers)
 * paces the loop, so that it batches events rather than starving requests.
 *
 * The reader lives from its first watcher to its last.
 */
export class StreamReader {
  private readonly subscriptions = new Set<Subscription>();
  /** The last revision the live loop has read (and served); undefined until the loop has started. */
  private position: number | undefined;
  /** The stream entry at `position` as it was read (undefined when there is none, e.g. at revision 0). */
  private positionEntry: StreamEntry | undefined;
  private positionWaiters: (() => void)[] = [];
  private connection: RedisClient | undefined;
  private stopped = false;
  private readonly abort = new AbortController();

  constructor(private readonly options: StreamReaderOptions) {
    void this.loop();
  }

  /**
   * A new watcher from `fromRevision` (exclusive), or from the current
   * revision. The current revision is asked for at once on the command
   * connection, so that any write issued on it afterwards is seen.
   */
  watch(fromRevision: string | undefined): Watcher {
    const { type, watchBuffer } = this.options;
    const subscription = new Subscription(watchBuffer, type, (s) => this.remove(s));
    this.subscriptions.add(subscription);
    let start: Promise<number>;
    if (fromRevision === undefined) {
      start = this.options.client.get(this.options.keys.revision).then((rev) => Number(rev ?? 0));
    } else if (REVISION.test(fromRevision)) {
      start = this.options.client.get(this.options.keys.revision).then((rev) => {
        // Ahead of the type: a revision of a primary that failed over and lost it (or of other data).
        // Waiting for the counter to reach it would skip the events numbered up to it.
        if (Number(fromRevision) > Number(rev ?? 0)) {
          throw expired(`too large resource version: ${fromRevision}, the current one of ${type} is ${rev ?? 0}`);
        }
        return Number(fromRevision);
      });
    } else {
      start = Promise.reject(new StorageError('Invalid', `"${fromRevision}" is not a revision of ${type}`, { type }));
    }
    void this.begin(subscription, start);
    return subscription.watcher;
  }

  /** Ends every watcher quietly and stops the loop. */
  close(): void {
    for (const subscription of [...this.subscriptions]) subscription.stop();
    this.stop();
  }

  private async begin(subscription: Subscription, start: Promise<number>): Promise<void> {
    try {
      subscription.cursor = await start;
      await this.catchUp(subscription);
    } catch (err) {
      subscription.fail(translateError(err, `watch ${this.options.type}`));
    }
  }

  /** Serves a new watcher from the stream until it reaches the live loop's position, then hands it over. */
  private async catchUp(subscription: Subscription): Promise<void> {
    const backoff = redisRetryBackoff();
    while (subscription.open && !this.stopped) {
      if (this.position !== undefined && subscription.cursor >= this.position) {
        subscription.live = true;
        return;
      }
      const room = this.options.watchBuffer - subscription.queued;
      if (room <= 0) {
        await subscription.waitForRoom();
        continue;
      }
      // What the live loop's position was when the range was asked for: an empty answer means "trimmed"
      // only if the loop had already read past the cursor then, not if its position arrived meanwhile.
      const positionAtRead = this.position;
      const read = await this.readAfter(subscription, room, backoff);
      const entries = read && this.withoutLastServed(subscription, read);
      if (entries === undefined || !(await this.follows(subscription, entries, positionAtRead))) continue;
      for (const entry of entries) subscription.push(decodeEvent(entry), revisionOfId(entry[0]), entry);
    }
  }

  /**
   * Up to `room` entries after the watcher's cursor, preceded by the entry at
   * the cursor when the watcher was served it (to check it is still there);
   * undefined when Redis is unreachable (after a backoff) or the read failed
   * otherwise (the watcher is failed).
   */
  private async readAfter(
    subscription: Subscription,
    room: number,
    backoff: ReturnType<typeof redisRetryBackoff>,
  ): Promise<StreamEntry[] | undefined> {
    const { client, keys, type } = this.options;
    try {
      const served = subscription.lastEntry === undefined ? 0 : 1;
      const entries = await client.xrange(
        keys.stream,
        `${subscription.cursor + 1 - served}-0`,
        '+',
        'COUNT',
        Math.min(room, READ_COUNT) + served,
      );
      backoff.reset();
      return entries;
    } catch (err) {
      const error = translateError(err, `watch ${type}`);
      if (isStorageError(error, 'Unavailable')) await backoff.wait(this.abort.signal);
      else subscription.fail(error);
      return undefined;
    }
  }

  /**
   * The entries after the one the watcher was served last, once that one is
   * found unchanged; undefined (the watcher failed with Expired) when it is
   * gone or different: Redis failed over to a replica that did not have it,
   * and a later write may have taken its revision.
   */
  private withoutLastServed(subscription: Subscription, entries: StreamEntry[]): StreamEntry[] | undefined {
    const last = subscription.lastEntry;
    if (last === undefined) return entries;
    if (entries.length > 0 && sameEntry(entries[0], last)) return entries.slice(1);
    subscription.fail(lostEntry(this.options.type, subscription.cursor));
    return undefined;
  }

  /**
   * Whether read entries carry on right after the watcher's cursor. Fails the
   * watcher with Expired when the stream was trimmed past it; waits for the
   * live loop's position when nothing was read before it was known.
   */
  private async follows(
    subscription: Subscription,
    entries: StreamEntry[],
    positionAtRead: number | undefined,
  ): Promise<boolean> {
    if (entries.length === 0) {
      if (positionAtRead === undefined) {
        await this.positionKnown();
        return false;
      }
      // The live loop has read past the cursor, yet nothing after it is left: trimmed away.
      subscription.fail(expired(`too old resource version: ${subscription.cursor}`));
      return false;
    }
    const first = revisionOfId(entries[0][0]);
    if (first !== subscription.cursor + 1) {
      subscription.fail(expired(`too old resource version: ${subscription.cursor} (${first - 1})`));
      return false;
    }
    return true;
  }

  private async loop(): Promise<void> {
    const backoff = redisRetryBackoff();
    // reconnected: the position must be read again; lostRedis: the next read says Redis is back.
    const state = { reconnected: false, lostRedis: false };
    while (!this.stopped) {
      try {
        await this.readOnce(state, backoff);
      } catch (err) {
        if (this.stopped) break;
        // Redis is unreachable (the connection reconnects by itself): read again after a while.
        this.options.outages.lost(`watch ${this.options.type}`, err);
        state.reconnected = true;
        state.lostRedis = true;
        await backoff.wait(this.abort.signal);
      }
    }
  }

  /** One blocking read of the stream after the position, delivered to the live watchers. */
  private async readOnce(
    state: { reconnected: boolean; lostRedis: boolean },
    backoff: ReturnType<typeof redisRetryBackoff>,
  ): Promise<void> {
    const connection = this.connection ?? (this.connection = this.options.openConnection());
    if (this.position === undefined || state.reconnected) {
      await this.syncPosition(connection);
      if (this.stopped) return;
      state.reconnected = false;
    }
    const { keys, type } = this.options;
    const reply = await connection.xread(
      'COUNT',
      READ_COUNT,
      'BLOCK',
      BLOCK_MS,
      'STREAMS',
      keys.stream,
      `${this.position}-0`,
    );
    if (this.stopped) return;
    backoff.reset();
    if (state.lostRedis) {
      this.options.outages.back(`watch ${type}`);
      state.lostRedis = false;
    }
    if (reply) {
      this.deliver(reply[0][1] as StreamEntry[]);
      // The next read waits until every watcher has had this one (in slices, between which requests are served):
      // what the stream receives meanwhile goes out together, one socket write per watcher (ADR 0066).
      await deliveriesDone();
    }
  }

  /**
   * Reads the type's revision: the position to start from; after a lost
   * connection, the end of the live watches if the revision went back or the
   * entry they were served last is no longer there as it was.
   */
  private async syncPosition(connection: RedisClient): Promise<void> {
    const revision = Number((await connection.get(this.options.keys.revision)) ?? 0);
    if (this.stopped) return;
    const lost = this.position === undefined ? undefined : await this.lostSince(connection, this.position, revision);
    if (this.stopped) return;
    if (lost) {
      this.failLive(lost);
      this.position = undefined;
    }
    if (this.position !== undefined) return;
    this.positionEntry = await entryAt(connection, this.options.keys.stream, revision);
    if (this.stopped) return;
    this.setPosition(revision);
  }

  /** Why the live watches at `position` cannot go on now that the type is at `revision`, if they cannot. */
  private async lostSince(connection: RedisClient, position: number, revision: number): Promise<Error | undefined> {
    const { keys, type } = this.options;
    // Redis came back without the data (no persistence), or failed over to a replica that lagged.
    if (revision < position)
      return expired(`the revisions of ${type} went back from ${position} to ${revision}; watch again`);
    if (this.positionEntry === undefined) return undefined;
    const now = await entryAt(connection, keys.stream, position);
    return now !== undefined && sameEntry(now, this.positionEntry) ? undefined : lostEntry(type, position);
  }

  /** Serves entries the live loop read to every live watcher that has not had them. */
  private deliver(entries: StreamEntry[]): void {
    for (const entry of entries) {
      const revision = revisionOfId(entry[0]);
      const position = this.position ?? 0;
      if (revision <= position) continue;
      if (revision !== position + 1) {
        // Trimmed while the loop was away: live watchers cannot be served without a gap.
        this.failLive(
          expired(`the change stream of ${this.options.type} was trimmed past revision ${position}; watch again`),
        );
      }
      this.setPosition(revision);
      this.positionEntry = entry;
      this.pushToLive(entry, revision);
    }
  }

  /** Pushes one entry to every live watcher whose cursor is before it, decoding it once. */
  private pushToLive(entry: StreamEntry, revision: number): void {
    let event;
    for (const subscription of this.subscriptions) {
      if (!subscription.live || revision <= subscription.cursor) continue;
      event ??= decodeEvent(entry);
      subscription.push(event, revision, entry);
    }
  }

  private failLive(error: Error): void {
    for (const subscription of this.subscriptions) if (subscription.live) subscription.fail(error);
  }

  private setPosition(revision: number): void {
    this.position = revision;
    const waiters = this.positionWaiters;
    this.positionWaiters = [];
    for (const wake of waiters) wake();
  }

  private positionKnown(): Promise<void> {
    if (this.position !== undefined || this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.positionWaiters.push(resolve));
  }

  private remove(subscription: Subscription): void {
    this.subscriptions.delete(subscription);
    if (this.subscriptions.size === 0) this.stop();
  }

  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    // A reader that stops while it has lost Redis no longer keeps the outage open.
    this.options.outages.back(`watch ${this.options.type}`);
    this.abort.abort();
    this.connection?.disconnect();
    for (const wake of this.positionWaiters.splice(0)) wake();
    this.options.onStopped(this);
  }
}

/** The stream's entry at `revision`, if it has one. */
async function entryAt(connection: RedisClient, stream: string, revision: number): Promise<StreamEntry | undefined> {
  if (revision === 0) return undefined;
  const [entry] = await connection.xrange(stream, `${revision}-0`, `${revision}-0`);
  return entry;
}

/** Whether two reads of a stream entry are the same entry: same id, same fields. */
function sameEntry([id, fields]: StreamEntry, [otherId, otherFields]: StreamEntry): boolean {
  return id === otherId && fields.length === otherFields.length && fields.every((f, i) => f === otherFields[i]);
}

/** Expired: the stream no longer has the entry a watcher was served at `revision` (a failover lost it). */
const lostEntry = (type: ResourceType, revision: number): StorageError =>
  expired(
    `the change stream of ${type} no longer has revision ${revision} as it was served (Redis failed over); watch again`,
  );
