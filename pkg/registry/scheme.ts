import { conflict } from '../api/errors';
import type { Storage } from '../storage/interface';
import type { IndexSpec } from '../storage/indexes';
import type { Logger } from '../util/log';
import { storageTypeOf, type Model } from './model';
import { ResourceStore, type StoreHooks } from './resource-store';
import { checksForModel } from './model-checks';
import { validateModel } from './model-validation';

/** A served model: its definition and the store behind its API. */
export interface RegisteredModel {
  model: Model;
  store: ResourceStore;
  /** Registered by the platform (core or `*.svc.run` group) rather than by a plugin or a Model object. */
  platform: boolean;
  /** Who serves it, as an error names them (`plugin "x"`, `Model "plural.group"`); undefined: the platform. */
  owner?: string;
}

/** Collects a model's extra indexes: `schemes.register(model, (indexes) => indexes.add({...}))`. */
export interface IndexCollector {
  add(spec: IndexSpec): IndexCollector;
}

export interface RegisterOptions {
  /** Platform kinds may use the core group and `*.svc.run` groups. */
  platform?: boolean;
  hooks?: StoreHooks;
  /** Who serves the model (see RegisteredModel.owner): a model served by one owner is not taken over by another. */
  owner?: string;
}

/**
 * The model registry (Halo's SchemeManager): which models are served, each
 * with its compiled schema and store. Every change is announced to
 * subscribers (discovery and OpenAPI rebuild from it).
 */
export class SchemeManager {
  private readonly models = new Map<string, RegisteredModel>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly storage: Storage,
    private readonly log?: Logger,
  ) {}

  /**
   * Serves a model: validates its definition, compiles its schema once,
   * defines its storage type and indexes (a new index on existing objects is
   * built in the background; the API answers 503 until it is), and returns it.
   * Registering the same group and plural again replaces the definition,
   * when it comes from the same owner; from another, it is refused (409).
   */
  async register(
    model: Model,
    configure?: (indexes: IndexCollector) => void,
    options: RegisterOptions = {},
  ): Promise<RegisteredModel> {
    const indexes = [...(model.indexes ?? [])];
    configure?.({
      add(spec) {
        indexes.push(spec);
        return this;
      },
    });
    const full: Model = { ...model, indexes };
    refuseTakeover(this.models.get(keyOf(full.group, full.plural)), full, options.owner);
    validateModel(full, { platform: options.platform ?? false });
    const checks = checksForModel(full);
    const type = storageTypeOf(full);
    await this.storage.defineType(type, indexes, ({ index, done, total }) =>
      this.log?.info({ type, index, done, total }, 'building index'),
    );
    const registered: RegisteredModel = {
      model: full,
      store: new ResourceStore(full, this.storage, checks, options.hooks),
      platform: options.platform ?? false,
      owner: options.owner,
    };
    this.models.set(keyOf(full.group, full.plural), registered);
    this.log?.info({ group: full.group, version: full.version, plural: full.plural }, 'model registered');
    this.notify();
    return registered;
  }

  /** Stops serving a model (its objects stay in the store). Returns whether it was served. */
  unregister(group: string, plural: string): boolean {
    const removed = this.models.delete(keyOf(group, plural));
    if (removed) this.notify();
    return removed;
  }

  /** The model served at `/apis/<group>/<version>/<plural>` (or `/api/<version>/<plural>` for group ""). */
  lookup(group: string, version: string, plural: string): RegisteredModel | undefined {
    const found = this.models.get(keyOf(group, plural));
    return found && found.model.version === version ? found : undefined;
  }

  /** The model served for `group` and `plural`, whatever its version. */
  served(group: string, plural: string): RegisteredModel | undefined {
    return this.models.get(keyOf(group, plural));
  }

  /** Every served model, sorted by group then plural. */
  all(): RegisteredModel[] {
    return [...this.models.values()].sort(
      (a, b) => a.model.group.localeCompare(b.model.group) || a.model.plural.localeCompare(b.model.plural),
    );
  }

  /** Whether the model's indexes are all built (its API answers 503 until then). */
  isReady(registered: RegisteredModel): boolean {
    return this.storage.indexStatus(registered.store.type).ready;
  }

  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

const keyOf = (group: string, plural: string) => `${group}/${plural}`;

/** A model served by one owner (a plugin, a Model object, the platform) may not be replaced by another's (409). */
function refuseTakeover(current: RegisteredModel | undefined, model: Model, owner: string | undefined): void {
  if (!current || current.owner === owner) return;
  const name = `${model.plural}.${model.group}`;
  throw conflict(
    { group: model.group, resource: model.plural },
    `model ${name} is served by ${current.owner ?? 'the platform'}: ${owner ?? 'the platform'} may not take it over`,
  );
}
