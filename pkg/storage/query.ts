import type { ApiObject } from '../api/object';
import type { FieldRequirement, LabelRequirement } from '../api/selector-requirements';

/** The selector requirements are pkg/api's; re-exported so storage callers find them with `ListOptions`. */
export type { FieldRequirement, LabelRequirement } from '../api/selector-requirements';

/**
 * One sort key. Objects with no value for the index sort after every object
 * that has one, in either direction. A multi-valued index sorts by the
 * object's smallest value ascending and its largest value descending.
 */
export interface SortKey {
  index: string;
  direction: 'asc' | 'desc';
}

/** One alternative of `ListOptions.anyOf`: requirements that are ANDed. */
export interface Alternative {
  labelSelector?: LabelRequirement[];
  fieldSelector?: FieldRequirement[];
}

/** What `Storage.list` is asked. Everything is optional and ANDed. */
export interface ListOptions {
  labelSelector?: LabelRequirement[];
  fieldSelector?: FieldRequirement[];
  /**
   * Alternatives, at least one of which an object must also meet: the list is
   * `labelSelector AND fieldSelector AND (anyOf[0] OR anyOf[1] OR …)`, each
   * alternative's requirements ANDed. An object meeting several is listed
   * once. `[]` matches nothing; an alternative without requirements makes the
   * whole `anyOf` void. Each alternative, with the list's own requirements,
   * must hold a requirement that names values (`in`, `=`, or a label's
   * existence): a union that only excludes would read the whole type, and is
   * Invalid. See docs/storage.md.
   */
  anyOf?: Alternative[];
  /**
   * Sort keys in priority order; `metadata.name` ascending is always the last
   * tie-breaker. Default: `metadata.creationTimestamp` desc, then `metadata.name` asc.
   */
  sort?: SortKey[];
  /** Matching objects to skip before the page (page/size paging: `(page-1)*size`). Default 0. */
  offset?: number;
  /** At most this many items. Default: all. */
  limit?: number;
  /**
   * A token from a previous `ListResult.continue`: resumes after that page.
   * The other options must be the same as in the call that returned it.
   * When set, `offset` is ignored.
   */
  continue?: string;
}

/** What `Storage.list` answers. */
export interface ListResult {
  items: ApiObject[];
  /** How many objects match, across all pages. */
  total: number;
  /** The type's revision the list was read at: watch from it to see every later change. */
  revision: string;
  /** Set when `limit` cut the result and more items follow: pass it as `ListOptions.continue`. */
  continue?: string;
  /**
   * Set with `continue`: how many matching objects follow this page, counted from
   * where the walk is (objects written between pages make it an estimate, as in Kubernetes).
   */
  remainingItemCount?: number;
}
