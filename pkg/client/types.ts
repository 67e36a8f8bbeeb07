import type { Status } from '../api/errors';
import type { ApiObject } from '../api/object';

/** Options every call takes: an AbortSignal that cancels the request. */
export interface RequestOptions {
  signal?: AbortSignal;
}

/** Query options of a list (docs/api.md). */
export interface ListOptions extends RequestOptions {
  /** e.g. `app=web,tier!=db`. */
  labelSelector?: string;
  /** Index names only, e.g. `metadata.name=ada`. */
  fieldSelector?: string;
  /** Kubernetes paging: at most this many items, and a `continue` token when there are more. */
  limit?: number;
  /** The token of the previous page. */
  continue?: string;
  /** Sort keys in priority order, e.g. `['spec.name,asc', 'metadata.name']`. */
  sort?: string[];
}

/** One page of a list, e.g. `{items: [...], resourceVersion: '1042'}`. */
export interface ListResult<T extends ApiObject = ApiObject> {
  items: T[];
  /** The type's revision at the list: a watch from it sees every later change. */
  resourceVersion: string;
  /** Present when `limit` cut the list short: pass it as `continue` for the next page. */
  continue?: string;
}

/** Query options of a watch (docs/api.md). */
export interface WatchOptions extends RequestOptions {
  /** Every change after this revision; absent: an ADDED for every current object first. */
  resourceVersion?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** The server ends the watch after this long (it caps it at its own watch timeout). */
  timeoutSeconds?: number;
  /**
   * Ask for BOOKMARK events carrying the current `resourceVersion`. A long-lived watch should: fetch breaks off a
   * response that carries nothing for 5 minutes (a `NetworkError` "… broke off: terminated"), and bookmarks keep an
   * idle watch talking.
   */
  allowWatchBookmarks?: boolean;
  /**
   * The Accept header: e.g. `application/json;as=Table;v=v1;g=meta.k8s.io` makes each event's object a one-row
   * `Table` of the model's printer columns (what `kubectl get -w` asks for); absent: the objects themselves.
   */
  accept?: string;
}

/** A watch event type as the wire carries it. `ERROR` never reaches a consumer: it is thrown. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

/** One watch event. A BOOKMARK's object carries only `metadata.resourceVersion`. */
export interface WatchEvent<T extends ApiObject = ApiObject> {
  type: WatchEventType;
  object: T;
}

/** Options of create, update and patch: `?dryRun=All` and `?fieldValidation=…`. */
export interface WriteOptions extends RequestOptions {
  dryRun?: boolean;
  fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
}

/**
 * Patch formats: `merge` (RFC 7386), `json` (RFC 6902), `apply` (server-side
 * apply; creates the object when it does not exist).
 */
export type PatchType = 'merge' | 'json' | 'apply';

/** Options of a patch; `fieldManager` and `force` matter for `apply`. */
export interface PatchOptions extends WriteOptions {
  fieldManager?: string;
  force?: boolean;
}

/** Kubernetes' delete preconditions: the removal (or marking) only happens when they hold, else 409. */
export interface Preconditions {
  resourceVersion?: string;
  uid?: string;
}

/** Options of a delete. */
export interface DeleteOptions extends RequestOptions {
  preconditions?: Preconditions;
}

/**
 * What a DELETE did (docs/api.md): marked the object (`removed: false`, the
 * object with `deletionTimestamp`), or removed it (`removed: true`, the
 * server's `Success` Status naming it).
 */
export type DeleteResult<T extends ApiObject = ApiObject> =
  { removed: false; object: T; status?: undefined } | { removed: true; object?: undefined; status: Status };
