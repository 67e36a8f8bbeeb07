import type { ApiObject } from '../../api/object';
import type { Storage } from '../../storage/interface';
import type { Logger } from '../../util/log';
import { StorageMirror } from '../mirror';
import { storageTypeOf } from '../model';
import type { SchemeManager } from '../scheme';
import { MODEL_KIND, modelOwner } from './model-kind';
import { modelFromObject } from './model-object';

/**
 * Serves every stored `Model` object: a mirror of them (list, then watch,
 * relist when the watch ends badly) tells it of each change, so that every
 * apiserver replica serves the same models. A Model marked for deletion (or
 * removed) stops being served; its objects stay in the store. Changes are
 * applied one at a time, in order.
 */
export class ModelSync {
  private readonly mirror: StorageMirror;
  /** Spec JSON of what is served, by Model name: a MODIFIED that leaves the spec alone changes nothing. */
  private readonly served = new Map<string, string>();
  /** The changes applied so far, one after another. */
  private applied: Promise<void> = Promise.resolve();

  constructor(
    storage: Storage,
    private readonly schemes: SchemeManager,
    private readonly log: Logger,
  ) {
    this.mirror = new StorageMirror(storage, storageTypeOf(MODEL_KIND), log);
    this.mirror.subscribe((name, _previous, current) => {
      this.applied = this.applied
        .then(() => (current === undefined ? this.withdraw(name) : this.apply(current)))
        .catch((err: unknown) => this.log.error({ model: name, err: (err as Error).message }, 'cannot apply model'));
    });
  }

  /** Serves the stored Models and resolves; keeps following changes until `stop()`. */
  async start(): Promise<void> {
    await this.mirror.start();
    await this.applied;
  }

  stop(): void {
    this.mirror.stop();
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
}
