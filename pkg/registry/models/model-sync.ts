import type { ApiObject } from '../../api/object';
import type { Storage } from '../../storage/interface';
import { isStorageError } from '../../storage/errors';
import { sleep } from '../../util/backoff';
import type { Logger } from '../../util/log';
import { storageTypeOf } from '../model';
import type { SchemeManager } from '../scheme';
import { MODEL_KIND, modelOwner } from './model-kind';
import { modelFromObject } from './model-object';

/**
 * Serves every stored `Model` object: lists them, then follows their change
 * stream, so that every apiserver replica serves the same models. A Model
 * marked for deletion (or removed) stops being served; its objects stay in
 * the store. Changes are applied one at a time, in order.
 */
export class ModelSync {
  private readonly type = storageTypeOf(MODEL_KIND);
  /** Spec JSON of what is served, by Model name: a MODIFIED that leaves the spec alone changes nothing. */
  private readonly served = new Map<string, string>();
  private stopped = false;
  private stopWatch: (() => void) | undefined;

  constructor(
    private readonly storage: Storage,
    private readonly schemes: SchemeManager,
    private readonly log: Logger,
  ) {}

  /** Serves the stored Models and resolves; keeps following changes until `stop()`. */
  async start(): Promise<void> {
    const revision = await this.resync();
    void this.follow(revision);
  }

  stop(): void {
    this.stopped = true;
    this.stopWatch?.();
  }

  private async resync(): Promise<string> {
    const { items, revision } = await this.storage.list(this.type, {});
    const names = new Set(items.map((i) => i.metadata.name!));
    for (const name of this.served.keys()) if (!names.has(name)) this.withdraw(name);
    for (const item of items) await this.apply(item);
    return revision;
  }

  private async follow(revision: string): Promise<void> {
    let from = revision;
    while (!this.stopped) {
      const watcher = this.storage.watch(this.type, { fromRevision: from });
      this.stopWatch = () => watcher.stop();
      try {
        for await (const event of watcher) {
          from = event.object.metadata.resourceVersion ?? from;
          if (event.type === 'DELETED') this.withdraw(event.object.metadata.name!);
          else await this.apply(event.object);
        }
      } catch (err) {
        if (this.stopped) return;
        this.log.warn({ err: (err as Error).message }, 'model watch ended; resyncing');
        from = await this.retry(() => this.resync(), isStorageError(err, 'Expired') ? 0 : 1000);
      }
    }
  }

  private async apply(object: ApiObject): Promise<void> {
    const name = object.metadata.name!;
    if (object.metadata.deletionTimestamp) {
      this.withdraw(name);
      return;
    }
    const spec = JSON.stringify(object.spec);
    if (this.served.get(name) === spec) return;
    try {
      await this.schemes.register(modelFromObject(object), undefined, { owner: modelOwner(name) });
      this.served.set(name, spec);
    } catch (err) {
      this.log.error({ model: name, err: (err as Error).message }, 'cannot serve model');
    }
  }

  private withdraw(name: string): void {
    if (!this.served.delete(name)) return;
    const [plural, ...group] = name.split('.');
    this.schemes.unregister(group.join('.'), plural);
    this.log.info({ model: name }, 'model no longer served');
  }

  private async retry<T>(fn: () => Promise<T>, delayMs: number): Promise<T> {
    for (let wait = delayMs; ; wait = Math.min(Math.max(wait * 2, 100), 10_000)) {
      if (wait) await sleep(wait);
      try {
        return await fn();
      } catch (err) {
        this.log.warn({ err: (err as Error).message }, 'model resync failed; retrying');
      }
    }
  }
}
