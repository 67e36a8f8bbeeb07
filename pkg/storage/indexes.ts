import type { ApiObject } from '../api/object';

/**
 * What an index function returns for one object: one value, several values (a
 * multi-valued index such as `spec.tags`), or nothing (the object is not in
 * the index). Values are strings and sort as strings (byte order).
 */
export type IndexValue = string | string[] | Set<string> | undefined | null;

/**
 * A secondary index of a type, e.g.
 * `{ name: 'spec.name', unique: true, indexFunc: (o) => (o.spec as any)?.name }`.
 * Only indexed fields can be filtered on (`fieldSelector`) or sorted on.
 */
export interface IndexSpec {
  /** Unique within the type; by convention the field path it indexes, e.g. `spec.tags`. */
  name: string;
  /** The direction a sort on this index takes when the query names none. Default `ASC`. */
  order?: 'ASC' | 'DESC';
  /** At most one object may hold each value. Default false. */
  unique?: boolean;
  /**
   * Order the objects of each value in the default list order, so that a page of one equality on this index
   * (`f=v`) in the default order is a range read, O(log n + page), `total` included. Redis keeps the index's
   * members in that order (ADR 0017): no extra write, but a sort by this index sorts each value's objects by
   * name. Worth it for an index that pages are filtered on by one value. Default false; the labels index has it.
   * Ignored for a unique index and `metadata.creationTimestamp`.
   */
  valueSets?: boolean;
  /**
   * Indexes whose one-value pages are often sorted by this one: for each name F, a page of one equality on F
   * (`labelSelector=k=v` with F `metadata.labels`, or `fieldSelector=F=v`) sorted by this index first is a range
   * read, O(log n + page), `total` included (ADR 0023). Costs one more index entry per pair of values an object
   * holds on every write. F must be another, non-unique index. Default: none (such pages cost O(matches)).
   */
  filteredBy?: string[];
  /** Set by the storage on the hidden index it keeps for one `filteredBy` pair; never declared by a type. */
  pairOf?: { filter: string; sort: string };
  /** Runs in the writing process on every stored state of an object. Must be pure. */
  indexFunc: (object: ApiObject) => IndexValue;
}

/** The labels index holds one value per label, `<key>=<value>`, so that `key=` prefixes answer existence. */
export const LABELS_INDEX = 'metadata.labels';
export const NAME_INDEX = 'metadata.name';
export const CREATION_INDEX = 'metadata.creationTimestamp';
export const DELETION_INDEX = 'metadata.deletionTimestamp';

/** The indexes every type has (docs/storage.md). */
export const DEFAULT_INDEXES: readonly IndexSpec[] = Object.freeze([
  { name: NAME_INDEX, unique: true, indexFunc: (o: ApiObject) => o.metadata.name },
  {
    name: LABELS_INDEX,
    valueSets: true,
    indexFunc: (o: ApiObject) => Object.entries(o.metadata.labels ?? {}).map(([k, v]) => `${k}=${v}`),
  },
  { name: CREATION_INDEX, indexFunc: (o: ApiObject) => o.metadata.creationTimestamp },
  { name: DELETION_INDEX, indexFunc: (o: ApiObject) => o.metadata.deletionTimestamp },
]);

/**
 * Whether an index is ordered (`valueSets`, ADR 0017): each value's objects are
 * kept in the default list order. Never a unique index (one object per value)
 * or the creation index (its values are the default order itself).
 */
export const isOrdered = (spec: IndexSpec): boolean =>
  spec.valueSets === true && !spec.unique && spec.name !== CREATION_INDEX;

/** Normalises an index function's result to a sorted, de-duplicated array. */
export function indexValues(spec: IndexSpec, object: ApiObject): string[] {
  const raw = spec.indexFunc(object);
  if (raw === undefined || raw === null) return [];
  const list = typeof raw === 'string' ? [raw] : [...raw];
  return [...new Set(list.filter((v): v is string => typeof v === 'string'))].sort();
}

/** The type's full index list: the defaults, then the type's own (a type's spec may not reuse a default's name). */
export function withDefaultIndexes(indexes: IndexSpec[]): IndexSpec[] {
  const names = new Set<string>();
  const all = [...DEFAULT_INDEXES, ...indexes];
  for (const spec of all) {
    if (names.has(spec.name)) throw new Error(`index "${spec.name}" is declared twice`);
    names.add(spec.name);
  }
  return all;
}
