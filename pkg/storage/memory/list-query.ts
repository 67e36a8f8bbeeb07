import type { ApiObject } from '../../api/object';
import { CREATION_INDEX, LABELS_INDEX, NAME_INDEX } from '../indexes';
import { StorageError } from '../errors';
import { countOption, sortDirection, unknownIndex } from '../list-options';
import { clone } from '../objects';
import type { Alternative, FieldRequirement, ListOptions, ListResult, SortKey } from '../query';
import { resolveAlternatives } from '../alternatives';
import { decodeContinue, encodeContinue, queryFingerprint, type ListPosition } from '../continue-token';
import type { IndexTable } from './index-table';
import type { TableSortKey } from './list-order';
import { orderNames, positionOf } from './list-order';
import { buildNameFilter, type TableRequirement } from './name-filter';
import { equalityRange, rangeNames } from './equality-range';
import { isPairIndex, pairQuery } from '../pair-indexes';
import { pairNames } from './pair-range';
import type { TypeStore } from './type-store';

const DEFAULT_SORT: readonly SortKey[] = [
  { index: CREATION_INDEX, direction: 'desc' },
  { index: NAME_INDEX, direction: 'asc' },
];

/**
 * Answers `Storage.list` for one type from its index tables: filter, order,
 * page. Synchronous, so the items, the total and the revision are one
 * consistent read.
 */
export function runList(store: TypeStore, asked: ListOptions = {}): ListResult {
  const { options, alternatives } = resolveAlternatives(asked);
  const { labels, fields, keys, fingerprint } = resolveQuery(store, options, alternatives);
  const { resumed, offset, limit, end } = pageBounds(options, fingerprint, keys.length);
  const after = resumed?.position;
  const query = { labels, fields, keys, needed: end + 1, after };
  const { total, ordered } =
    alternatives === undefined ? matches(store, options, query) : unionMatches(store, options, alternatives, query);
  const page = ordered.slice(offset, end);
  const result: ListResult = {
    items: page.map((name) => clone(store.objects.get(name) as ApiObject)),
    total,
    revision: String(store.revision),
  };
  if (limit !== undefined && limit > 0 && ordered.length > end) {
    // Items listed so far in this walk; writes between pages make what remains an estimate.
    const listed = (resumed?.listed ?? offset) + page.length;
    result.continue = encodeContinue(positionOf(keys, page[page.length - 1]), fingerprint, listed);
    result.remainingItemCount = Math.max(0, total - listed);
  }
  return result;
}

/** Where the page starts and ends, and the continue token's state when resuming. */
function pageBounds(options: ListOptions, fingerprint: string, sortKeys: number) {
  const resumed = options.continue ? decodeContinue(options.continue, fingerprint, sortKeys) : undefined;
  const offset = resumed !== undefined ? 0 : (countOption(options.offset, 'offset') ?? 0);
  const limit = countOption(options.limit, 'limit');
  // One more than the page is read, to learn whether another page follows.
  const end = limit === undefined ? Infinity : offset + limit;
  return { resumed, offset, limit, end };
}

/** The tables and sort keys a query names (Invalid or Unavailable as `queryTable`), and its fingerprint. */
function resolveQuery(
  store: TypeStore,
  options: ListOptions,
  alternatives: readonly Required<Alternative>[] | undefined,
): Omit<ResolvedQuery, 'needed' | 'after'> & { fingerprint: string } {
  const labels = queryTable(store, LABELS_INDEX, 'labelSelector');
  const fields = tableRequirements(store, options.fieldSelector ?? [], 'fieldSelector');
  alternatives?.forEach((alt, at) => tableRequirements(store, alt.fieldSelector, `anyOf[${at}].fieldSelector`));
  const sort = options.sort !== undefined && options.sort.length > 0 ? options.sort : DEFAULT_SORT;
  const keys = sort.map((key) => sortKey(store, key)) as [TableSortKey, ...TableSortKey[]];
  const fingerprint = queryFingerprint({
    sort: keys.map((k) => [k.table.name, k.direction]),
    labels: options.labelSelector ?? [],
    fields: (options.fieldSelector ?? []).map((req) => [req.field, req.op, req.values]),
    ...(alternatives && { any: alternatives }),
  });
  return { labels, fields, keys, fingerprint };
}

/** Field requirements with their tables (Invalid or Unavailable as `queryTable`). */
function tableRequirements(store: TypeStore, reqs: readonly FieldRequirement[], usedIn: string): TableRequirement[] {
  return reqs.map((req) => ({ table: queryTable(store, req.field, usedIn), op: req.op, values: req.values }));
}

/**
 * The matches of a list with alternatives: the union of each alternative's
 * matches ANDed with the list's requirements, each found from its own index
 * entries as a conjunctive list's are (every alternative names values, so
 * none reads the whole type), then ordered as any selective list.
 */
function unionMatches(
  store: TypeStore,
  options: ListOptions,
  alternatives: readonly Required<Alternative>[],
  query: ResolvedQuery,
): { total: number; ordered: string[] } {
  const names = new Set<string>();
  for (const alt of alternatives) {
    const filter = buildNameFilter(
      query.labels,
      [...(options.labelSelector ?? []), ...alt.labelSelector],
      [...query.fields, ...tableRequirements(store, alt.fieldSelector, 'anyOf')],
      store.objects.size,
    );
    for (const name of filter.names ?? []) names.add(name);
  }
  const union = { has: (name: string) => names.has(name), size: names.size, names };
  return {
    total: names.size,
    ordered: orderNames(union, query.keys, query.needed, store.objects.size, query.after),
  };
}

/** What a query resolved to: its tables, sort keys, how many names are needed and where it resumes. */
interface ResolvedQuery {
  labels: IndexTable;
  fields: TableRequirement[];
  keys: [TableSortKey, ...TableSortKey[]];
  needed: number;
  after: ListPosition | undefined;
}

/**
 * The number of matches and at least the first `needed` of them in order:
 * from an ordered index's range for one equality in the default order, or
 * from a built pair index for one equality sorted by its sort index (both
 * O(log n + page)), else from the filter of every requirement.
 */
function matches(store: TypeStore, options: ListOptions, query: ResolvedQuery): { total: number; ordered: string[] } {
  const range = equalityRange(options, (index) => queryTable(store, index, 'fieldSelector'));
  if (range !== undefined) {
    return { total: range.table.namesWith(range.value).size, ordered: rangeNames(range, query.needed, query.after) };
  }
  const pair = pairQuery(store.specs(), options);
  const pairs = pair && store.table(pair.index);
  if (pair !== undefined && pairs !== undefined && pairs.building === undefined) {
    const total = queryTable(store, pair.filter, 'fieldSelector').namesWith(pair.value).size;
    return { total, ordered: pairNames({ pairs, value: pair.value }, query.keys, query.needed, query.after) };
  }
  const filter = buildNameFilter(query.labels, options.labelSelector ?? [], query.fields, store.objects.size);
  return { total: filter.size, ordered: orderNames(filter, query.keys, query.needed, store.objects.size, query.after) };
}

/** The table a query names; Invalid when the type has no such index, Unavailable while it is being built. */
function queryTable(store: TypeStore, index: string, usedIn: string): IndexTable {
  const table = store.table(index);
  if (table === undefined || isPairIndex(table.spec)) {
    throw unknownIndex(store.type, index, usedIn, store.indexNames());
  }
  if (table.building !== undefined) {
    throw new StorageError(
      'Unavailable',
      `index "${index}" of ${store.type} is still being built (${table.building.done}/${table.building.total})`,
      { type: store.type, index, retryAfterSeconds: 1 },
    );
  }
  return table;
}

function sortKey(store: TypeStore, key: SortKey): TableSortKey {
  const table = queryTable(store, key.index, 'sort');
  return { table, direction: sortDirection(store.type, key, table.spec) };
}
