import type { ApiObject, ObjectMeta } from '../api/object';
import { badRequest, conflict, forbidden, invalid, isNotFound, notFound, type ErrorSubject } from '../api/errors';
import type { Preconditions, Storage, StoredRead, WriteOptions } from '../storage/interface';
import type { ListOptions, ListResult } from '../storage/query';
import type { Watcher } from '../storage/watch';
import { isStorageError, staleConflict } from '../storage/errors';
import { meetsPreconditions } from '../storage/preconditions';
import { clone, timestamp } from '../storage/objects';
import { initialStatusOf, storageTypeOf, type Model } from './model';
import { objectFromBody, preconditionsFromBody, withoutServerFields } from './object-input';
import { interpretStorageError } from './storage-errors';
import type { ObjectChecks } from './object-checks';
import { unknownFieldCauses, unknownFieldWarnings } from './schema';
import { mapConcurrent } from '../util/map-concurrent';
import type { UserInfo } from '../auth/user';

/**
 * Deletes a collection DELETE runs at once. Kubernetes runs one by default
 * (`--delete-collection-workers`); each of ours is a Redis round trip or two,
 * so a few in flight mark 10,000 objects in seconds instead of half a minute.
 */
const DELETE_COLLECTION_WORKERS = 16;

/** How a write treats fields the schema does not declare (`?fieldValidation=`). */
export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** Options of every write request. */
export interface RequestOptions {
  dryRun?: boolean;
  fieldValidation?: FieldValidation;
  /** Who asks: hooks read it (ownership, escalation checks). Absent for the platform's own writes. */
  user?: UserInfo;
  /** The caller may write only some objects (conditional rules): absent when they may write any. */
  access?: ObjectAccess;
}

/**
 * The objects a caller's conditional rules let them write. A write of an object outside it is 404 (the caller
 * cannot learn that it exists); a write whose result would be outside it is 403.
 */
export interface ObjectAccess {
  allows(object: ApiObject): boolean;
  /** What the caller may write, for messages: `spec.owner=ada`, several joined by "or". */
  describe: string;
}

/** What a hook knows about the request it runs for. */
export interface HookContext {
  user?: UserInfo;
  dryRun: boolean;
}

/** A written object and the warnings to send with it. */
export interface WriteResult {
  object: ApiObject;
  /** `Warning` header values, ready to send: `299 - "unknown field \"spec.foo\""`. */
  warnings: string[];
}

/** What a DELETE did: marked the object (it stays), or removed it (docs/api.md). */
export interface DeleteResult {
  removed: boolean;
  object: ApiObject;
}

/** Platform kinds' extra steps, e.g. hashing a password before it is stored. */
export interface StoreHooks {
  beforeCreate?(object: ApiObject, ctx: HookContext): ApiObject | Promise<ApiObject>;
  /** Runs for every write of an existing object but a DELETE (PUT, PATCH, status), inside its compare-and-swap. */
  beforeUpdate?(next: ApiObject, current: ApiObject, ctx: HookContext): ApiObject | Promise<ApiObject>;
  /** Runs before a DELETE marks or removes the object; throwing refuses it. */
  beforeDelete?(current: ApiObject, ctx: HookContext): void | Promise<void>;
  /** Strips what no response may carry, e.g. a password hash. */
  present?(object: ApiObject): ApiObject;
  /**
   * Runs after a write is stored (not on dry runs), before it is answered:
   * e.g. waiting until this replica's security cache has seen it, so that a
   * client's next request is judged by what it just wrote.
   */
  afterWrite?(object: ApiObject): Promise<void>;
}

/**
 * The generic resource store of one model: the semantics of docs/api.md
 * above storage (like Kubernetes' registry Store). Storage errors become API
 * errors here and nowhere else.
 */
export class ResourceStore {
  readonly type: string;

  constructor(
    readonly model: Model,
    private readonly storage: Storage,
    private readonly checks: ObjectChecks,
    private readonly hooks: StoreHooks = {},
  ) {
    this.type = storageTypeOf(model);
  }

  subject(name?: string): ErrorSubject {
    return { group: this.model.group, resource: this.model.plural, name };
  }

  /**
   * POST: validates and stores a new object. Status is not taken from the body (Kubernetes' rule): a new object
   * starts with the status its schema gives as `status`'s default (validated with the rest), else with none.
   */
  async create(body: unknown, opts: RequestOptions = {}): Promise<WriteResult> {
    const input = objectFromBody(this.model, body);
    delete input.status;
    const initial = initialStatusOf(this.model);
    if (initial !== undefined) input.status = initial;
    const { object, warnings } = this.admit({ ...input, metadata: withoutServerFields(input.metadata) }, opts);
    const prepared = this.hooks.beforeCreate ? await this.hooks.beforeCreate(object, hookContext(opts)) : object;
    this.checkAccessToResult(prepared, opts, 'create');
    const stored = await this.call(prepared.metadata.name, () =>
      this.storage.create(this.type, prepared, writeOptions(opts)),
    );
    await this.written(stored, opts);
    return { object: this.present(opts.dryRun ? dryRunAnswer(stored, undefined) : stored), warnings };
  }

  async get(name: string): Promise<ApiObject> {
    return this.present(await this.call(name, () => this.storage.get(this.type, name)));
  }

  /**
   * `get`, answered as the object's JSON text where the storage keeps that text and no hook changes what is presented
   * (`present`): for a reader that passes the object on as JSON, one parse and one stringify less. Else the object.
   */
  async getStored(name: string): Promise<StoredRead> {
    const storage = this.storage;
    if (this.hooks.present || !storage.getStored) return { object: await this.get(name) };
    return this.call(name, () => storage.getStored!(this.type, name));
  }

  async list(options: ListOptions): Promise<ListResult> {
    const result = await this.call(undefined, () => this.storage.list(this.type, options));
    return { ...result, items: result.items.map((o) => this.present(o)) };
  }

  /** PUT: replaces the object but its status; must carry `version` or `resourceVersion`. */
  async update(name: string, body: unknown, opts: RequestOptions = {}): Promise<WriteResult> {
    const input = this.bodyForName(name, body);
    const preconditions = preconditionsFromBody(this.model, input, true);
    return this.replace(name, opts, preconditions, (current) => {
      this.checkUid(name, input, current);
      return { object: withStatus(input, current.status) };
    });
  }

  /** PUT …/status: replaces only the status. */
  async updateStatus(name: string, body: unknown, opts: RequestOptions = {}): Promise<WriteResult> {
    const input = this.bodyForName(name, body);
    const preconditions = preconditionsFromBody(this.model, input, true);
    return this.replace(name, opts, preconditions, (current) => {
      this.checkUid(name, input, current);
      return { object: withStatus(current, input.status), unstoredMetadata: input.metadata };
    });
  }

  /**
   * PATCH (main or status endpoint): `patch(current)` returns the patched
   * object; it runs on each read of a compare-and-swap retry. Unconditional
   * unless the patched result carries a `version`/`resourceVersion` that the
   * patch itself set.
   */
  async patch(
    name: string,
    patch: (current: ApiObject) => unknown,
    opts: RequestOptions = {},
    subresource?: 'status',
  ): Promise<WriteResult> {
    const current = await this.call(name, () => this.storage.get(this.type, name));
    const probe = objectFromBody(this.model, patch(clone(current)));
    const preconditions = carriesOwnToken(probe, current) ? preconditionsFromBody(this.model, probe, false) : undefined;
    return this.replace(name, opts, preconditions, (cur) => {
      const patched = objectFromBody(this.model, patch(clone(cur)));
      // As Kubernetes, the patched object's name is checked as a PUT body's is.
      if (patched.metadata.name !== name) throw nameMismatch(name, patched.metadata.name);
      this.checkUid(name, patched, cur);
      return subresource === 'status'
        ? { object: withStatus(cur, patched.status), unstoredMetadata: patched.metadata }
        : { object: withStatus(patched, cur.status) };
    });
  }

  /**
   * DELETE (docs/api.md): the first marks the object with `deletionTimestamp`;
   * one of a marked object without finalizers removes it; one of a marked
   * object with finalizers changes nothing. `preconditions` (DeleteOptions)
   * must hold in every case.
   */
  async delete(
    name: string,
    preconditions: Preconditions | undefined,
    opts: RequestOptions = {},
  ): Promise<DeleteResult> {
    for (;;) {
      const current = await this.call(name, () => this.storage.get(this.type, name));
      this.checkAccess(current, opts);
      await this.hooks.beforeDelete?.(current, hookContext(opts));
      if (!current.metadata.deletionTimestamp) return this.markDeleted(name, preconditions, opts);
      if (!meetsPreconditions(current, preconditions)) this.conflict(name);
      if (current.metadata.finalizers?.length) return { removed: false, object: this.present(current) };
      const removed = await this.removeMarked(current, name, preconditions, opts);
      if (removed !== undefined) return removed;
    }
  }

  /** The first DELETE: sets `deletionTimestamp` (under `preconditions`). */
  private async markDeleted(
    name: string,
    preconditions: Preconditions | undefined,
    opts: RequestOptions,
  ): Promise<DeleteResult> {
    let before: LockTokens | undefined;
    const marked = await this.call(name, () =>
      this.storage.update(
        this.type,
        name,
        (cur) => {
          before = lockTokensOf(cur);
          cur.metadata.deletionTimestamp ??= timestamp();
          return cur;
        },
        preconditions,
        writeOptions(opts),
      ),
    );
    await this.written(marked, opts);
    return { removed: false, object: this.present(opts.dryRun ? dryRunAnswer(marked, before) : marked) };
  }

  /**
   * Removes a marked object without finalizers, conditionally on what was read,
   * so that a concurrent change is never removed unseen; undefined when such a
   * change got in first and the DELETE had no preconditions (read again).
   */
  private async removeMarked(
    current: ApiObject,
    name: string,
    preconditions: Preconditions | undefined,
    opts: RequestOptions,
  ): Promise<DeleteResult | undefined> {
    try {
      const removed = await this.storage.delete(
        this.type,
        name,
        { resourceVersion: current.metadata.resourceVersion },
        writeOptions(opts),
      );
      await this.written(removed, opts);
      return { removed: true, object: this.present(removed) };
    } catch (err) {
      if (!preconditions && isStorageError(err, 'Conflict')) return undefined;
      return interpretStorageError(err, this.subject(name));
    }
  }

  /**
   * DELETE on the collection: deletes each matching object, DELETE_COLLECTION_WORKERS
   * at a time; returns what each delete left or removed, in list order.
   */
  async deleteCollection(options: ListOptions, opts: RequestOptions = {}): Promise<ApiObject[]> {
    const { items } = await this.list({ ...options, offset: undefined, limit: undefined, continue: undefined });
    const results = await mapConcurrent(items, DELETE_COLLECTION_WORKERS, async (item) => {
      try {
        return (await this.delete(item.metadata.name!, undefined, opts)).object;
      } catch (err) {
        // Removed by someone else meanwhile: nothing left to mark.
        if (!isNotFound(err)) throw err;
        return undefined;
      }
    });
    return results.filter((o): o is ApiObject => o !== undefined);
  }

  /** The type's change feed; see `Storage.watch`. */
  watch(fromRevision?: string): Watcher {
    return this.storage.watch(this.type, fromRevision === undefined ? {} : { fromRevision });
  }

  async currentRevision(): Promise<string> {
    return this.call(undefined, () => this.storage.currentRevision(this.type));
  }

  /** Strips what no response may carry (hooks.present). Cheap when there is no hook. */
  present(object: ApiObject): ApiObject {
    return this.hooks.present ? this.hooks.present(object) : object;
  }

  /** A PUT body, whose `metadata.name` must be the path's: a missing one is no exception (docs/api.md, Kubernetes). */
  private bodyForName(name: string, body: unknown): ApiObject {
    const input = objectFromBody(this.model, body);
    if (input.metadata.name !== name) throw nameMismatch(name, input.metadata.name);
    return input;
  }

  /**
   * Kubernetes reads a `metadata.uid` in a PUT body or a patched object as a precondition on the stored
   * object: another uid is a 409 Conflict; an absent one asks nothing.
   */
  private checkUid(name: string, sent: ApiObject, current: ApiObject): void {
    const uid = sent.metadata.uid;
    if (uid === undefined || uid === current.metadata.uid) return;
    throw conflict(
      this.subject(name),
      `Precondition failed: UID in precondition: ${String(uid)}, UID in object meta: ${String(current.metadata.uid)}`,
    );
  }

  /** The compare-and-swap write shared by PUT, PUT status and PATCH; `build` makes the object to store. */
  private async replace(
    name: string,
    opts: RequestOptions,
    preconditions: Preconditions | undefined,
    build: (current: ApiObject) => BuiltObject,
  ): Promise<WriteResult> {
    let warnings: string[] = [];
    let before: LockTokens | undefined;
    const stored = await this.call(name, () =>
      this.storage.update(
        this.type,
        name,
        async (current) => {
          before = lockTokensOf(current);
          this.checkAccess(current, opts);
          const { object: next, unstoredMetadata } = build(current);
          const admitted = this.admit(
            { ...next, metadata: withoutServerFields(next.metadata) },
            opts,
            current,
            unstoredMetadata,
          );
          warnings = admitted.warnings;
          const object = admitted.object;
          object.metadata = { ...object.metadata, deletionTimestamp: current.metadata.deletionTimestamp };
          const result = this.hooks.beforeUpdate
            ? await this.hooks.beforeUpdate(object, current, hookContext(opts))
            : object;
          this.checkAccessToResult(result, opts, 'update');
          return result;
        },
        preconditions,
        writeOptions(opts),
      ),
    );
    await this.written(stored, opts);
    return { object: this.present(opts.dryRun ? dryRunAnswer(stored, before) : stored), warnings };
  }

  /** 404 when the caller's conditional rules do not reach the stored object: they cannot learn that it exists. */
  private checkAccess(current: ApiObject, opts: RequestOptions): void {
    if (opts.access && !opts.access.allows(current)) throw notFound(this.subject(current.metadata.name));
  }

  /** 403 when the object as it would be stored is outside what the caller's conditional rules let them write. */
  private checkAccessToResult(object: ApiObject, opts: RequestOptions, verb: 'create' | 'update'): void {
    if (!opts.access || opts.access.allows(object)) return;
    const { plural, group } = this.model;
    const resource = group ? `${plural}.${group}` : plural;
    const name = object.metadata.name ?? object.metadata.generateName ?? '';
    throw forbidden(
      `${resource} "${name}" is forbidden: User "${opts.user?.name ?? ''}" may ${verb} ${plural} only where ` +
        `${opts.access.describe}, and the object as it would be stored does not match`,
      { group, resource: plural, name: object.metadata.name },
    );
  }

  private async written(object: ApiObject, opts: RequestOptions): Promise<void> {
    if (this.hooks.afterWrite && !opts.dryRun) await this.hooks.afterWrite(object);
  }

  /**
   * Prunes unknown fields (or refuses them when Strict) and validates; 422 with every cause.
   * The unknown fields of `unstoredMetadata` are reported as well (see BuiltObject).
   */
  private admit(
    object: ApiObject,
    opts: RequestOptions,
    current?: ApiObject,
    unstoredMetadata?: ObjectMeta,
  ): WriteResult {
    const { object: pruned, unknownFields: stored } = this.checks.prune(object);
    const unstored = unstoredMetadata ? this.unknownMetadataFields(object, unstoredMetadata) : [];
    const unknownFields = [...new Set([...unstored, ...stored])];
    const subject = { kind: this.model.kind, name: object.metadata.name };
    if (opts.fieldValidation === 'Strict' && unknownFields.length)
      throw invalid(subject, unknownFieldCauses(unknownFields));
    const strict = unknownFields.filter((field) => this.inStrictField(field));
    if (strict.length) throw invalid(subject, unknownFieldCauses(strict));
    const causes = this.checks.validate(pruned, current);
    if (causes.length) throw invalid(subject, causes);
    const warnings = opts.fieldValidation === 'Ignore' ? [] : unknownFieldWarnings(unknownFields);
    return { object: pruned, warnings };
  }

  /** Whether an unknown field's path (`rules[0].where`) lies under one of the model's `strictFields`. */
  private inStrictField(path: string): boolean {
    return (this.model.strictFields ?? []).some(
      (field) => path.startsWith(`${field}.`) || path.startsWith(`${field}[`),
    );
  }

  /** The fields `prune` would remove from `metadata` in place of the object's: `['metadata.foo']`. */
  private unknownMetadataFields({ apiVersion, kind }: ApiObject, metadata: ObjectMeta): string[] {
    return this.checks.prune({ apiVersion, kind, metadata }).unknownFields;
  }

  private conflict(name: string): never {
    interpretStorageError(staleConflict(this.type, name), this.subject(name));
  }

  private async call<T>(name: string | undefined, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      interpretStorageError(err, this.subject(name));
    }
  }
}

/**
 * What a PUT or PATCH stores, built from the stored object. A status write stores none of the
 * metadata the client sent (`unstoredMetadata`); unknown fields there are reported all the same,
 * as Kubernetes reports every unknown field of a body.
 */
interface BuiltObject {
  object: ApiObject;
  unstoredMetadata?: ObjectMeta;
}

const writeOptions = (opts: RequestOptions): WriteOptions => (opts.dryRun ? { dryRun: true } : {});

/** The optimistic-lock tokens of a stored object. */
type LockTokens = Pick<ObjectMeta, 'resourceVersion' | 'version'>;
const lockTokensOf = (object: ApiObject): LockTokens => ({
  resourceVersion: object.metadata.resourceVersion,
  version: object.metadata.version,
});

/**
 * What a dry run answers: the object as the write would store it, but with the lock tokens of what is
 * stored (`before`), since nothing was written, so that a client may send it back; a dry-run create
 * has no resourceVersion (Kubernetes answers both so).
 */
function dryRunAnswer(object: ApiObject, before: LockTokens | undefined): ApiObject {
  const metadata = { ...object.metadata };
  if (before) Object.assign(metadata, before);
  else delete metadata.resourceVersion;
  return { ...object, metadata };
}
const hookContext = (opts: RequestOptions): HookContext => ({ user: opts.user, dryRun: opts.dryRun ?? false });

/** A patch that sets `version`/`resourceVersion` to something else than the current values asks for a condition. */
function carriesOwnToken(patched: ApiObject, current: ApiObject): boolean {
  return (
    patched.metadata.version !== current.metadata.version ||
    patched.metadata.resourceVersion !== current.metadata.resourceVersion
  );
}

/** Kubernetes' 400 for a body (or patched object) named otherwise than the path, or not at all. */
function nameMismatch(path: string, body: unknown) {
  return badRequest(`the name of the object (${String(body ?? '')}) does not match the name on the URL (${path})`);
}

/**
 * The object with this status, and with no `status` key at all when there is none: a key holding
 * `undefined` would count as an unknown field of a schema that declares no status (422 under Strict).
 */
function withStatus(object: ApiObject, status: unknown): ApiObject {
  const { status: _replaced, ...rest } = object as ApiObject & { status?: unknown };
  return (status === undefined ? rest : { ...rest, status }) as ApiObject;
}
