import type { Status } from '../api/errors';
import type { ApiObject } from '../api/object';
import type { ObjectReadListOptions } from '../api/object-read';
import { discoverResources, type DiscoveredResource } from './discovery';
import { collectionPath, describeResource, objectPath, type ResourceRef } from './resource';
import { Transport, type HttpRequest, type TransportConfig } from './transport';
import type {
  DeleteOptions,
  DeleteResult,
  ListOptions,
  ListResult,
  PatchOptions,
  PatchType,
  RequestOptions,
  WatchOptions,
  WriteOptions,
} from './types';
import { WatchStream } from './watch-stream';

/** How to reach the apiserver, e.g. `{server: 'http://127.0.0.1:8080', token, userAgent: 'svcctl/0.1.0'}`. */
export type ApiClientConfig = TransportConfig;

const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
};

interface ListEnvelope<T> {
  items?: T[];
  metadata?: { resourceVersion?: string; continue?: string };
}

/**
 * A typed client of the svc API (docs/api.md) over Node's `fetch`: what
 * controllers and svcctl use. Resources are addressed by `{group, version, plural}`.
 * Failures are `ApiError` (a non-2xx answer, with its Status; see
 * `isNotFound`, `isConflict`, `isAlreadyExists`, `isExpired`) or `NetworkError` (no answer).
 * @example
 * const client = new ApiClient({server: 'http://127.0.0.1:8080'});
 * const PERSONS = {group: 'example.com', version: 'v1alpha1', plural: 'persons'};
 * const ada = await client.get(PERSONS, 'ada');
 * await client.patch(PERSONS, 'ada', {spec: {age: 37}});
 */
export class ApiClient {
  private readonly transport: Transport;

  constructor(private readonly config: ApiClientConfig) {
    this.transport = new Transport(config);
  }

  /** The same client acting as `user` (`Impersonate-User`), which the server allows only to whom it trusts to. */
  impersonating(user: string): ApiClient {
    return new ApiClient({ ...this.config, impersonateUser: user });
  }

  /** GET one object; NotFound when it does not exist. */
  get<T extends ApiObject = ApiObject>(res: ResourceRef, name: string, options: RequestOptions = {}): Promise<T> {
    const req = { method: 'GET', path: objectPath(res, name), signal: options.signal };
    return this.transport.read<T>({ verb: 'get', ...target(res), name }, req);
  }

  /** GET the collection, filtered, sorted and paged as asked. */
  async list<T extends ApiObject = ApiObject>(res: ResourceRef, options: ListOptions = {}): Promise<ListResult<T>> {
    const req = { method: 'GET', path: collectionPath(res), query: listQuery(options), signal: options.signal };
    const body = await this.transport.read<ListEnvelope<T>>(
      { verb: 'list', ...target(res), options: readListOptions(options) },
      req,
    );
    const result: ListResult<T> = { items: body.items ?? [], resourceVersion: body.metadata?.resourceVersion ?? '0' };
    if (body.metadata?.continue) result.continue = body.metadata.continue;
    return result;
  }

  /** POST a new object (or one with `metadata.generateName`); AlreadyExists when the name is taken. */
  create<T extends ApiObject = ApiObject>(res: ResourceRef, object: T, options: WriteOptions = {}): Promise<T> {
    return this.transport.json<T>({
      method: 'POST',
      path: collectionPath(res),
      query: writeQuery(options),
      body: object,
      signal: options.signal,
    });
  }

  /**
   * PUT the whole object (its `status` is ignored: see `updateStatus`). It must
   * carry `metadata.resourceVersion` or `metadata.version`; Conflict when stale.
   */
  update<T extends ApiObject = ApiObject>(res: ResourceRef, object: T, options: WriteOptions = {}): Promise<T> {
    return this.transport.json<T>({
      method: 'PUT',
      path: objectPath(res, nameOf(res, object)),
      query: writeQuery(options),
      body: object,
      signal: options.signal,
    });
  }

  /** PUT the `status` subresource: writes only `status`; Conflict when the object's version is stale. */
  updateStatus<T extends ApiObject = ApiObject>(res: ResourceRef, object: T, options: WriteOptions = {}): Promise<T> {
    return this.transport.json<T>({
      method: 'PUT',
      path: objectPath(res, nameOf(res, object), 'status'),
      query: writeQuery(options),
      body: object,
      signal: options.signal,
    });
  }

  /**
   * PATCH an object: a merge patch by default, a JSON patch (an array of
   * operations), or server-side apply (creates the object when absent).
   * Unconditional unless the patch carries `metadata.resourceVersion`.
   */
  patch<T extends ApiObject = ApiObject>(
    res: ResourceRef,
    name: string,
    patch: unknown,
    type: PatchType = 'merge',
    options: PatchOptions = {},
  ): Promise<T> {
    const query = writeQuery(options);
    if (options.fieldManager) query.set('fieldManager', options.fieldManager);
    if (options.force !== undefined) query.set('force', String(options.force));
    return this.transport.json<T>({
      method: 'PATCH',
      path: objectPath(res, name),
      query,
      body: patch,
      contentType: PATCH_CONTENT_TYPES[type],
      signal: options.signal,
    });
  }

  /**
   * DELETE an object (docs/api.md): the first marks it (`removed: false` and the
   * object with `deletionTimestamp`); one of a marked object without
   * finalizers removes it (`removed: true` and the Success Status). With
   * `preconditions` it only acts when they hold (Conflict otherwise).
   */
  async delete<T extends ApiObject = ApiObject>(
    res: ResourceRef,
    name: string,
    options: DeleteOptions = {},
  ): Promise<DeleteResult<T>> {
    const body = options.preconditions
      ? { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: options.preconditions }
      : undefined;
    const answer = await this.transport.json<T | Status>({
      method: 'DELETE',
      path: objectPath(res, name),
      body,
      signal: options.signal,
    });
    if (answer.kind === 'Status' && (answer as Status).status === 'Success')
      return { removed: true, status: answer as Status };
    return { removed: false, object: answer as T };
  }

  /**
   * Opens a watch (docs/api.md); resolves once the server accepted it. Iterate
   * the stream for events; see `WatchStream` for how it ends.
   */
  async watch<T extends ApiObject = ApiObject>(res: ResourceRef, options: WatchOptions = {}): Promise<WatchStream<T>> {
    const query = new URLSearchParams({ watch: 'true' });
    if (options.resourceVersion) query.set('resourceVersion', options.resourceVersion);
    if (options.labelSelector) query.set('labelSelector', options.labelSelector);
    if (options.fieldSelector) query.set('fieldSelector', options.fieldSelector);
    if (options.timeoutSeconds !== undefined) query.set('timeoutSeconds', String(options.timeoutSeconds));
    if (options.allowWatchBookmarks) query.set('allowWatchBookmarks', 'true');
    const abort = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, abort.signal]) : abort.signal;
    const response = await this.transport.send({
      method: 'GET',
      path: collectionPath(res),
      query,
      signal,
      stream: true,
      accept: options.accept,
    });
    if (!response.body) throw new Error(`watch ${describeResource(res)}: the answer has no body`);
    return new WatchStream<T>(response.body, abort, describeResource(res), options.signal);
  }

  /**
   * Any other request (subresource actions, access reviews, a Table, paged
   * lists): the parsed JSON answer of a 2xx, failures as for the typed calls.
   * @example await client.request({method: 'GET', path: '/apis/api.console.svc.run/v1alpha1/users/-/permissions'})
   */
  request<T = unknown>(req: HttpRequest): Promise<T> {
    return this.transport.json<T>(req);
  }

  /** Every resource type the server serves, from discovery (subresources left out). */
  discover(options: RequestOptions = {}): Promise<DiscoveredResource[]> {
    return discoverResources(this.transport, options.signal);
  }
}

function writeQuery(options: WriteOptions): URLSearchParams {
  const query = new URLSearchParams();
  if (options.dryRun) query.set('dryRun', 'All');
  if (options.fieldValidation) query.set('fieldValidation', options.fieldValidation);
  return query;
}

function nameOf(res: ResourceRef, object: ApiObject): string {
  const name = object.metadata?.name;
  if (!name) throw new Error(`an update of ${describeResource(res)} needs metadata.name`);
  return name;
}

/** What a read addresses, as values. */
const target = (res: ResourceRef) => ({ group: res.group, version: res.version, resource: res.plural });

/** A list's options as a read carries them: those `listQuery` sends, nothing else (no signal). */
function readListOptions(options: ListOptions): ObjectReadListOptions {
  const read: ObjectReadListOptions = {};
  if (options.labelSelector) read.labelSelector = options.labelSelector;
  if (options.fieldSelector) read.fieldSelector = options.fieldSelector;
  if (options.limit !== undefined) read.limit = options.limit;
  if (options.continue) read.continue = options.continue;
  if (options.sort?.length) read.sort = [...options.sort];
  return read;
}

/** A list's query: the selectors, paging and sort keys that are set. */
function listQuery(options: ListOptions): URLSearchParams {
  const query = new URLSearchParams();
  if (options.labelSelector) query.set('labelSelector', options.labelSelector);
  if (options.fieldSelector) query.set('fieldSelector', options.fieldSelector);
  if (options.limit !== undefined) query.set('limit', String(options.limit));
  if (options.continue) query.set('continue', options.continue);
  for (const key of options.sort ?? []) query.append('sort', key);
  return query;
}
