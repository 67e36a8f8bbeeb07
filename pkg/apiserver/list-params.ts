import { badRequest, StatusError } from '../api/errors';
import { parseFieldSelector, parseLabelSelector } from '../api/selectors';
import type { IndexSpec } from '../storage/indexes';
import type { ListOptions, SortKey } from '../storage/query';
import { checkListOptions } from './list-options-check';
import { watchRequested } from './request-info';

/**
 * The query of a list, watch or deletecollection request (docs/api.md) and
 * the paging fields of the list envelope. Every malformed value is a 400
 * `BadRequest` that names the parameter and quotes the value; unknown
 * parameters are ignored, as Kubernetes does. A parameter given twice takes
 * its first value, except the repeatable `sort`, `labelSelector` and
 * `fieldSelector`.
 */

/** Halo-style paging: page `page` (from 1) of `size` items. */
export interface ListPaging {
  page: number;
  size: number;
}

/** Kubernetes' `resourceVersionMatch` values. */
export type ResourceVersionMatch = 'NotOlderThan' | 'Exact';

/** A parsed list query. */
export interface ListParams {
  /**
   * What to ask `Storage.list`: selectors, sort, and the page as `offset`/`limit`
   * (from `page`/`size`, or Kubernetes' `limit`/`continue`). Only given options are set.
   */
  list: ListOptions;
  /** Set when `size` is: the envelope's page and size. */
  paging: ListPaging | undefined;
  /** `watch` present with any value but `false`/`0` (see `watchRequested`). */
  watch: boolean;
  /** Opaque; absent when not given or empty. */
  resourceVersion?: string;
  /** A list: only with `resourceVersion`. A watch: only `NotOlderThan`, with `sendInitialEvents` (Kubernetes' rules). */
  resourceVersionMatch?: ResourceVersionMatch;
  /**
   * Watches only, with `resourceVersionMatch=NotOlderThan` and `allowWatchBookmarks=true`: true streams the
   * current objects as ADDED events, then a BOOKMARK marking their end (Kubernetes' WatchList); false sends no
   * initial events. Absent when not given.
   */
  sendInitialEvents?: boolean;
  /** ≥ 0; how the server caps it is the caller's decision. */
  timeoutSeconds?: number;
  /** `allowWatchBookmarks=true|1`: send a BOOKMARK at least every minute (docs/api.md). */
  allowWatchBookmarks: boolean;
}

/** What `parseListParams` knows about the listed type. */
export interface ListParamsOptions {
  /**
   * The type's indexes. A sort key that names no direction takes its index's
   * `order`; without this list (or for an index not in it) it is ascending.
   * Whether the sorted index exists is the storage's check (Invalid → 400).
   */
  indexes?: readonly IndexSpec[];
}

/** Where a Kubernetes `limit`/`continue` page stands: whether it resumed a token, whether another follows. */
export interface ContinuePosition {
  /** The request carried a `continue` token. */
  resumed: boolean;
  /** The answer carries `metadata.continue`. */
  more: boolean;
}

/** The paging fields of the list envelope (docs/api.md), in the order the envelope shows them. */
export interface ListEnvelopePaging {
  page: number;
  size: number;
  total: number;
  totalPages: number;
  first: boolean;
  last: boolean;
  hasNext: boolean;
  hasPrevious: boolean;
}

const SORT_FORMAT = 'expected <index>, <index>,asc or <index>,desc';

const invalidParam = (name: string, value: string, why: string) =>
  badRequest(`invalid ${name} ${JSON.stringify(value)}: ${why}`);

/** The first value of a parameter, or undefined when it is absent. */
const first = (query: URLSearchParams, name: string): string | undefined => query.get(name) ?? undefined;

/** A decimal integer parameter of at least `min` (no sign, no fraction, no exponent). */
function integerParam(query: URLSearchParams, name: string, min: number): number | undefined {
  const raw = first(query, name);
  if (raw === undefined) return undefined;
  const value = /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min) {
    throw invalidParam(name, raw, `must be an integer of at least ${min}`);
  }
  return value;
}

/**
 * A boolean parameter: `true`/`1`/`false`/`0` in any case, and a bare
 * parameter (`?watch`) is true. Stricter than Kubernetes, which reads any
 * other value as true: here it is a 400.
 */
function booleanParam(query: URLSearchParams, name: string): boolean {
  const raw = first(query, name);
  if (raw === undefined) return false;
  switch (raw.toLowerCase()) {
    case '':
    case 'true':
    case '1':
      return true;
    case 'false':
    case '0':
      return false;
    default:
      throw invalidParam(name, raw, 'must be true, 1, false or 0');
  }
}

/** Empty string → absent: Kubernetes treats `resourceVersion=` and `continue=` as not given. */
function stringParam(query: URLSearchParams, name: string): string | undefined {
  const raw = first(query, name);
  return raw === '' ? undefined : raw;
}

function sortKey(raw: string, indexes: readonly IndexSpec[]): SortKey {
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length > 2 || parts[0] === '') throw invalidParam('sort', raw, SORT_FORMAT);
  const index = parts[0];
  if (parts.length === 1) {
    const order = indexes.find((spec) => spec.name === index)?.order;
    return { index, direction: order === 'DESC' ? 'desc' : 'asc' };
  }
  const direction = parts[1].toLowerCase();
  if (direction !== 'asc' && direction !== 'desc') throw invalidParam('sort', raw, SORT_FORMAT);
  return { index, direction };
}

/**
 * `sort` values in priority order. Empty values are skipped; a later key on
 * an index already sorted on is dropped (it could not change the order).
 */
function sortParam(query: URLSearchParams, indexes: readonly IndexSpec[]): SortKey[] {
  const keys: SortKey[] = [];
  for (const raw of query.getAll('sort')) {
    if (raw.trim() === '') continue;
    const key = sortKey(raw, indexes);
    if (!keys.some((k) => k.index === key.index)) keys.push(key);
  }
  return keys;
}

/** Every value of a selector parameter, parsed and ANDed; a parse error names the parameter and value. */
function selectorParam<T>(query: URLSearchParams, name: string, parse: (values: string[]) => T[]): T[] {
  return query.getAll(name).flatMap((value) => {
    try {
      return parse([value]);
    } catch (error) {
      if (error instanceof StatusError) throw invalidParam(name, value, error.message);
      throw error;
    }
  });
}

/** `resourceVersionMatch`: one of Kubernetes' values; which combinations are allowed is `checkListOptions`' job. */
function resourceVersionMatchParam(query: URLSearchParams): ResourceVersionMatch | undefined {
  const raw = stringParam(query, 'resourceVersionMatch');
  if (raw === undefined || raw === 'NotOlderThan' || raw === 'Exact') return raw;
  throw invalidParam('resourceVersionMatch', raw, 'must be NotOlderThan or Exact');
}

/** A boolean parameter that may be absent (`sendInitialEvents`): undefined then. */
function optionalBooleanParam(query: URLSearchParams, name: string): boolean | undefined {
  return query.has(name) ? booleanParam(query, name) : undefined;
}

/** `page`/`size` or `limit`/`continue` as ListOptions' `offset`/`limit`/`continue`, and the envelope's paging. */
function pageParams(query: URLSearchParams): { list: ListOptions; paging: ListPaging | undefined } {
  const page = integerParam(query, 'page', 1);
  const size = integerParam(query, 'size', 1);
  const limit = integerParam(query, 'limit', 0);
  const token = stringParam(query, 'continue');
  if (size !== undefined && limit) {
    throw badRequest('size and limit cannot be combined: page with page and size, or with limit and continue');
  }
  if (size !== undefined && token !== undefined) {
    throw badRequest('size and continue cannot be combined: page with page and size, or with limit and continue');
  }
  if (size !== undefined) return sizedPage(page ?? 1, size);
  return limitedPage(page, limit, token);
}

/** `page` and `size`: the envelope's paging and the offset it means. */
function sizedPage(page: number, size: number): { list: ListOptions; paging: ListPaging } {
  return { list: { offset: (page - 1) * size, limit: size }, paging: { page, size } };
}

/** Kubernetes' `limit` and `continue`, without an envelope's paging. */
function limitedPage(
  page: number | undefined,
  limit: number | undefined,
  token: string | undefined,
): { list: ListOptions; paging: undefined } {
  // Without size the envelope is page 1 of everything (docs/api.md): any other page cannot be meant.
  if (page !== undefined && page !== 1) {
    throw badRequest(
      `page ${page} needs a size: give size with page, or leave page out (without size there is only page 1)`,
    );
  }
  const list: ListOptions = {};
  if (limit) list.limit = limit; // Kubernetes: limit=0 means no limit.
  if (token !== undefined) list.continue = token;
  return { list, paging: undefined };
}

/**
 * Parses the query of a list, watch or deletecollection request:
 * `page` (integer ≥ 1, default 1 when `size` is given) and `size` (≥ 1) map
 * to `offset = (page-1)*size`, `limit = size`; `limit` (≥ 0, 0 = no limit) and
 * `continue` are Kubernetes' paging and cannot be combined with `size`;
 * `sort=<index>[,asc|desc]` (repeatable; direction in any case; without one,
 * the index's `order`, else ascending); `labelSelector` and `fieldSelector`
 * (repeatable, ANDed); `watch`, `allowWatchBookmarks` (true/1/false/0);
 * `resourceVersion`, `resourceVersionMatch` (`NotOlderThan`, `Exact`), `sendInitialEvents`
 * (combinations checked by `checkListOptions`); `timeoutSeconds` (≥ 0).
 * @example parseListParams(new URLSearchParams('page=2&size=20&sort=metadata.name,desc&labelSelector=app=web'))
 * // → {list: {labelSelector: [{key:'app', op:'in', values:['web']}], sort: [{index:'metadata.name', direction:'desc'}],
 * //    offset: 20, limit: 20}, paging: {page: 2, size: 20}, watch: false, allowWatchBookmarks: false}
 */
export function parseListParams(query: URLSearchParams, options: ListParamsOptions = {}): ListParams {
  const { list: page, paging } = pageParams(query);
  const list: ListOptions = {};
  const labelSelector = selectorParam(query, 'labelSelector', parseLabelSelector);
  const fieldSelector = selectorParam(query, 'fieldSelector', parseFieldSelector);
  const sort = sortParam(query, options.indexes ?? []);
  if (labelSelector.length) list.labelSelector = labelSelector;
  if (fieldSelector.length) list.fieldSelector = fieldSelector;
  if (sort.length) list.sort = sort;
  Object.assign(list, page);

  // Read as the request info reads it, so that what was authorised as a watch is served as one.
  const watch = watchRequested(query);
  const params: ListParams = { list, paging, watch, allowWatchBookmarks: booleanParam(query, 'allowWatchBookmarks') };
  const resourceVersion = stringParam(query, 'resourceVersion');
  if (resourceVersion !== undefined) params.resourceVersion = resourceVersion;
  const resourceVersionMatch = resourceVersionMatchParam(query);
  if (resourceVersionMatch !== undefined) params.resourceVersionMatch = resourceVersionMatch;
  const sendInitialEvents = optionalBooleanParam(query, 'sendInitialEvents');
  if (sendInitialEvents !== undefined) params.sendInitialEvents = sendInitialEvents;
  checkListOptions({ ...params, continue: list.continue });
  const timeoutSeconds = integerParam(query, 'timeoutSeconds', 0);
  if (timeoutSeconds !== undefined) params.timeoutSeconds = timeoutSeconds;
  return params;
}

/**
 * The envelope's paging fields (docs/api.md, Halo's `ListResult`). Without
 * `size`: page 1, size = total (0 when there are none), totalPages 1, first
 * and last true. With it: totalPages = ceil(total/size), so 0 when nothing
 * matches (as Halo); a page past the end has hasNext false (and hasPrevious
 * true); first = !hasPrevious, last = !hasNext. With `limit`/`continue`
 * (`position`, only without `size`), hasNext is true exactly when a continue
 * token is returned and hasPrevious when one was given.
 * @example listEnvelopePaging(2, 20, 153)
 * // → {page: 2, size: 20, total: 153, totalPages: 8, first: false, last: false, hasNext: true, hasPrevious: true}
 */
export function listEnvelopePaging(
  page: number | undefined,
  size: number | undefined,
  total: number,
  position?: ContinuePosition,
): ListEnvelopePaging {
  if (size === undefined) {
    const hasNext = position?.more ?? false;
    const hasPrevious = position?.resumed ?? false;
    return { page: 1, size: total, total, totalPages: 1, first: !hasPrevious, last: !hasNext, hasNext, hasPrevious };
  }
  const current = page ?? 1;
  const totalPages = Math.ceil(total / size);
  const hasNext = current < totalPages;
  const hasPrevious = current > 1;
  return { page: current, size, total, totalPages, first: !hasPrevious, last: !hasNext, hasNext, hasPrevious };
}
