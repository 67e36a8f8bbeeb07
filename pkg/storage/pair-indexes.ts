import type { ApiObject } from '../api/object';
import { LABELS_INDEX, indexValues, withDefaultIndexes, type IndexSpec } from './indexes';
import type { ListOptions } from './query';

/*
 * Pair indexes (ADR 0023): a sort index S that declares `filteredBy: [F]`
 * gets a hidden index whose values are `<F value>\x01<S value>` for each pair
 * of values an object holds (`<F value>\x02` when it has no S value; no value
 * at all when it has no F value). Its entries for one F value are therefore
 * that value's objects in S order, the S-less ones last, so a page of one
 * equality on F sorted by S is read from where it starts, O(log n + page).
 *
 * Values of F holding a byte below `\x03` are left out of the pair index (they
 * would break its order); a query on such a value takes the general plan.
 */

/** Separates the F value from the S value in a pair value. */
export const PAIR_SEPARATOR = '\x01';
/** Follows the F value of an object that has no S value: it sorts after every `\x01…`. */
export const PAIR_NO_SORT_VALUE = '\x02';

/** Whether a value holds a byte a pair value uses as a separator (below `\x03`). */
const hasSeparator = (value: string): boolean => [...value].some((c) => c.charCodeAt(0) < 3);

/** The hidden index of the pair (filter F, sort S); never a name a type may declare (it holds spaces). */
export const pairIndexName = (filter: string, sort: string): string => `pair ${filter} by ${sort}`;

/** Whether an index name is a pair index's (what `pairIndexName` makes), for where only the name is known. */
export const isPairIndexName = (name: string): boolean => name.startsWith('pair ');

/** Whether a spec is a pair index (hidden from queries, made by `storedIndexes`). */
export const isPairIndex = (spec: IndexSpec): boolean => spec.pairOf !== undefined;

/** The prefix shared by the pair values of one F value, and the one of its objects without an S value. */
export const pairPrefixes = (filterValue: string): { sorted: string; unsorted: string } => ({
  sorted: filterValue + PAIR_SEPARATOR,
  unsorted: filterValue + PAIR_NO_SORT_VALUE,
});

/**
 * Every index a backend stores for a type: the defaults, the type's own, then
 * a pair index for each (F, S) a sort index S declares with `filteredBy`.
 * Throws when `filteredBy` names no index, a unique index, or S itself.
 */
export function storedIndexes(indexes: IndexSpec[]): IndexSpec[] {
  const all = withDefaultIndexes(indexes);
  const byName = new Map(all.map((s) => [s.name, s]));
  const pairs: IndexSpec[] = [];
  for (const sort of all) {
    for (const filterName of new Set(sort.filteredBy ?? [])) {
      const filter = byName.get(filterName);
      if (filter === undefined || filter.unique || filter === sort) {
        throw new Error(`index "${sort.name}": filteredBy "${filterName}" must name another, non-unique index`);
      }
      const pair = pairSpec(filter, sort);
      if (byName.has(pair.name)) throw new Error(`index "${pair.name}" is declared twice`);
      pairs.push(pair);
    }
  }
  return [...all, ...pairs];
}

function pairSpec(filter: IndexSpec, sort: IndexSpec): IndexSpec {
  return {
    name: pairIndexName(filter.name, sort.name),
    pairOf: { filter: filter.name, sort: sort.name },
    indexFunc: (object: ApiObject) => pairValues(indexValues(filter, object), indexValues(sort, object)),
  };
}

/** The pair values of an object holding `filterValues` and `sortValues`. */
export function pairValues(filterValues: readonly string[], sortValues: readonly string[]): string[] {
  const values: string[] = [];
  for (const f of filterValues) {
    if (hasSeparator(f)) continue;
    const { sorted, unsorted } = pairPrefixes(f);
    if (sortValues.length === 0) values.push(unsorted);
    for (const s of sortValues) values.push(sorted + s);
  }
  return values;
}

/** A query a pair index answers: one equality on F (`filter` = `value`), sorted by S first. */
export interface PairQuery {
  index: string;
  filter: string;
  value: string;
}

/**
 * The pair index that answers a query, if the type has one: the query's only
 * requirement is one equality (`k=v`, `k in (v)`, `f=v`, `f in (v)`) on F and
 * its first sort key is S. `specs` are the stored indexes.
 */
export function pairQuery(specs: readonly IndexSpec[], options: ListOptions): PairQuery | undefined {
  const first = options.sort?.[0];
  if (first === undefined) return undefined;
  const equality = soleEquality(options);
  if (equality === undefined || hasSeparator(equality.value)) return undefined;
  const index = pairIndexName(equality.index, first.index);
  if (!specs.some((s) => s.name === index)) return undefined;
  return { index, filter: equality.index, value: equality.value };
}

/** The index and value of a query's only requirement, when it is an equality. */
export function soleEquality(options: ListOptions): { index: string; value: string } | undefined {
  const labels = options.labelSelector ?? [];
  const fields = options.fieldSelector ?? [];
  if (labels.length + fields.length !== 1) return undefined;
  const [req] = labels.length === 1 ? labels : fields;
  const values = new Set(req.values);
  if (req.op !== 'in' || values.size !== 1) return undefined;
  const [value] = values;
  return 'key' in req ? { index: LABELS_INDEX, value: `${req.key}=${value}` } : { index: req.field, value };
}
