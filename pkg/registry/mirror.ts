import type { ApiObject } from '../api/object';
import { Reflector, type ReflectorSource } from '../cache/reflector';
import type { ResourceType, Storage } from '../storage/interface';
import { isStorageError } from '../storage/errors';
import { Backoff } from '../util/backoff';
import type { Logger } from '../util/log';

/** Told of every change a mirror applies: the object's old and new state (undefined when absent). */
export type MirrorListener = (name: string, previous: ApiObject | undefined, current: ApiObject | undefined) => void;

/**
 * An in-memory copy of one stored type, kept current by its watch (the
 * reflector of ../cache/reflector.ts over storage): lists the type, then
 * follows its changes; relists when the watch expires, and retries with
 * backoff after errors. What the apiserver's authentication and authorisation
 * read on every request, so that no request costs a storage round trip for
 * them. Objects are shared: never mutate one.
 */
export class StorageMirror {
  private readonly reflector: Reflector<ApiObject>;

  constructor(
    storage: Storage,
    readonly type: ResourceType,
    log: Logger,
  ) {
    // Retries come quicker than an informer's: every request of the apiserver reads what a mirror holds.
    this.reflector = new Reflector(storageSource(storage, type), {
      log: log.child({ mirror: type }),
      backoff: new Backoff(100, 10_000),
    });
  }

  /** Loads the type and resolves (rejects when the store cannot be listed); keeps following changes until `stop()`. */
  async start(): Promise<void> {
    await this.reflector.listNow();
    this.reflector.start();
  }

  stop(): void {
    void this.reflector.stop();
  }

  get(name: string): ApiObject | undefined {
    return this.reflector.store.get(name);
  }

  values(): IterableIterator<ApiObject> {
    return this.reflector.store.values();
  }

  /** The revision of the type this mirror has caught up with. */
  get currentRevision(): string {
    return this.reflector.revision || '0';
  }

  /**
   * Resolves once the mirror has applied the type's changes up to `revision`
   * (or after `timeoutMs`, so that a lagging watch delays an answer but never
   * holds it).
   */
  async waitFor(revision: string | undefined, timeoutMs = 5000): Promise<void> {
    await this.reflector.waitForRevision(revision, timeoutMs);
  }

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: MirrorListener): () => void {
    return this.reflector.subscribe((change) => {
      if (change.type === 'added') listener(change.name, undefined, change.object);
      else if (change.type === 'updated') listener(change.name, change.previous, change.object);
      else listener(change.name, change.previous, undefined);
    });
  }
}

/** A stored type as a reflector's source: a watch from a revision storage no longer keeps is Expired. */
function storageSource(storage: Storage, type: ResourceType): ReflectorSource<ApiObject> {
  return {
    list: async () => {
      const { items, revision } = await storage.list(type, {});
      return { items, revision };
    },
    watch: async (revision, onEvent, signal) => {
      if (signal.aborted) return;
      const watcher = storage.watch(type, { fromRevision: revision });
      const stop = () => watcher.stop();
      signal.addEventListener('abort', stop, { once: true });
      try {
        for await (const event of watcher) onEvent(event);
      } finally {
        signal.removeEventListener('abort', stop);
        watcher.stop();
      }
    },
    isExpired: (err) => isStorageError(err, 'Expired'),
  };
}
