import type { ApiObject } from '../api/object';
import type { ResourceType, Storage } from '../storage/interface';
import { isStorageError } from '../storage/errors';
import { sleep } from '../util/backoff';
import type { Logger } from '../util/log';

/** Told of every change a mirror applies: the object's old and new state (undefined when absent). */
export type MirrorListener = (name: string, previous: ApiObject | undefined, current: ApiObject | undefined) => void;

/**
 * An in-memory copy of one stored type, kept current by its watch: lists the
 * type, then follows its changes; relists when the watch expires. What the
 * apiserver's authentication and authorisation read on every request, so that
 * no request costs a storage round trip for them. Objects are shared: never
 * mutate one.
 */
export class StorageMirror {
  private readonly objects = new Map<string, ApiObject>();
  private readonly listeners = new Set<MirrorListener>();
  private stopped = false;
  private stopWatch: (() => void) | undefined;
  private revision = '0';
  private waiters: { revision: bigint; resolve: () => void }[] = [];

  constructor(
    private readonly storage: Storage,
    readonly type: ResourceType,
    private readonly log: Logger,
  ) {}

  /** Loads the type and resolves; keeps following changes until `stop()`. */
  async start(): Promise<void> {
    await this.resync();
    void this.follow();
  }

  stop(): void {
    this.stopped = true;
    this.stopWatch?.();
    for (const w of this.waiters.splice(0)) w.resolve();
  }

  get(name: string): ApiObject | undefined {
    return this.objects.get(name);
  }

  values(): IterableIterator<ApiObject> {
    return this.objects.values();
  }

  /** The revision of the type this mirror has caught up with. */
  get currentRevision(): string {
    return this.revision;
  }

  /**
   * Resolves once the mirror has applied the type's changes up to `revision`
   * (or after `timeoutMs`, so that a lagging watch delays an answer but never
   * holds it).
   */
  waitFor(revision: string | undefined, timeoutMs = 5000): Promise<void> {
    if (revision === undefined || !/^\d+$/.test(revision) || BigInt(revision) <= BigInt(this.revision))
      return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = {
        revision: BigInt(revision),
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve();
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: MirrorListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async resync(): Promise<void> {
    const { items, revision } = await this.storage.list(this.type, {});
    const seen = new Set<string>();
    for (const item of items) {
      seen.add(item.metadata.name!);
      this.apply(item.metadata.name!, item);
    }
    for (const name of [...this.objects.keys()]) if (!seen.has(name)) this.apply(name, undefined);
    this.advance(revision);
  }

  private advance(revision: string): void {
    this.revision = revision;
    if (this.waiters.length === 0) return;
    const now = BigInt(revision);
    const ready = this.waiters.filter((w) => w.revision <= now);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.revision > now);
    for (const w of ready) w.resolve();
  }

  private async follow(): Promise<void> {
    while (!this.stopped) {
      const watcher = this.storage.watch(this.type, { fromRevision: this.revision });
      this.stopWatch = () => watcher.stop();
      try {
        for await (const event of watcher) {
          const name = event.object.metadata.name!;
          this.apply(name, event.type === 'DELETED' ? undefined : event.object);
          this.advance(event.object.metadata.resourceVersion ?? this.revision);
        }
      } catch (err) {
        if (this.stopped) return;
        this.log.warn({ type: this.type, err: (err as Error).message }, 'mirror watch ended; relisting');
        await this.relist(isStorageError(err, 'Expired') ? 0 : 500);
      }
    }
  }

  private async relist(firstDelayMs: number): Promise<void> {
    for (let wait = firstDelayMs; !this.stopped; wait = Math.min(Math.max(wait * 2, 100), 10_000)) {
      if (wait) await sleep(wait);
      try {
        await this.resync();
        return;
      } catch (err) {
        this.log.warn({ type: this.type, err: (err as Error).message }, 'mirror relist failed; retrying');
      }
    }
  }

  private apply(name: string, object: ApiObject | undefined): void {
    const previous = this.objects.get(name);
    if (object) this.objects.set(name, object);
    else if (previous) this.objects.delete(name);
    else return;
    for (const listener of this.listeners) listener(name, previous, object);
  }
}
