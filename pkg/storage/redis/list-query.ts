import { CREATION_INDEX, LABELS_INDEX, NAME_INDEX, type IndexSpec } from '../indexes';
import { countOption, sortDirection, unknownIndex } from '../list-options';
import type { ResourceType } from '../interface';
import type { FieldRequirement, LabelRequirement, ListOptions, SortKey } from '../query';
import { decodeContinue, queryFingerprint, type ListPosition } from '../continue-token';
import { isOrdered } from './keys';
import { isPairIndex, pairQuery, type PairQuery } from '../pair-indexes';
import { storedValue } from './stored-values';
import { resolveAlternatives } from '../alternatives';

const DEFAULT_SORT: readonly SortKey[] = [{ index: CREATION_INDEX, direction: 'desc' }];

/** A requirement on one index: an object holding one of `v` (or a value starting with `p`). */
export interface ScriptRequirement {
  i: string;
  v: string[];
  p?: string;
  /** Set when no object holds more than one matching value, so that counting members counts objects. */
  one?: true;
}

/** The list script's query (see scripts/list.lua). */
export interface ListScriptQuery {
  indexes: string[];
  keys: Record<string, number>;
  pos: ScriptRequirement[];
  neg: ScriptRequirement[];
  /** Alternatives (two or more), one of which an object must meet besides `pos` and `neg`. */
  any?: { pos: ScriptRequirement[]; neg: ScriptRequirement[] }[];
  sort: { i: string; d: boolean }[];
  offset: number;
  want: number;
  after?: ListPosition;
  /** The ordered indexes among `indexes` (ADR 0017): their members end with an order member, not a name. */
  ordered: string[];
  /** Set when the members of the one positive requirement's value are the matches in the query's order. */
  range?: true;
  /**
   * Set when a pair index (ADR 0023) holds the matches in the order of the first sort key: its name `i`
   * (the script falls back to the other plans while it is being built), and the filter index `f` and value `v`.
   */
  pair?: { i: string; f: string; v: string };
  /**
   * Set with `any` when each alternative is one value of an ordered index, the order is the default one and the
   * query has no requirement of its own: the page is a merge of those values' ranges (ADR 0017).
   */
  merge?: true;
  /** Index members a plan may read before it answers SLICE (see ./sliced-list.ts); unlimited when absent. */
  budget?: number;
  /** Set on a slice call: where the slice starts (`{}` for the first), and `size`, members it reads at most. */
  slice?: unknown;
  size?: number;
}

/** One value of an ordered index, whose members are exactly the objects a query matches, in its order. */
export interface EqualityRange {
  index: string;
  value: string;
}

/** A list query checked against a type's indexes, ready for the script. */
export interface PlannedList {
  query: ListScriptQuery;
  /** The index names whose sorted sets the script reads, in KEYS order after the fixed four. */
  indexKeys: string[];
  /** Set when a range of an ordered index answers the query. */
  range?: EqualityRange;
  /** What continue tokens of this query are bound to. */
  fingerprint: string;
  /** Matching items before this page: the offset, or those a continue token counted. */
  skipped: number;
  limit: number | undefined;
}

/**
 * Checks `options` against the type's indexes and turns them into the list
 * script's query. Invalid when a field or sort key names no index (the
 * message lists the type's indexes), when a number is not a non-negative
 * integer, or when the continue token is malformed or from another query.
 */
export function planList(type: ResourceType, specs: readonly IndexSpec[], asked: ListOptions = {}): PlannedList {
  const known = indexLookup(
    type,
    specs.filter((s) => !isPairIndex(s)),
  );
  const { options, alternatives } = resolveAlternatives(asked);
  const { pos, neg } = requirements(options, known);
  const any = alternatives?.map((alt, at) => requirements(alt, known, `anyOf[${at}].fieldSelector`));
  const sort = sortOf(type, options, known);
  const named = [pos, neg, ...(any ?? []).flatMap((alt) => [alt.pos, alt.neg])].flat();
  const used = [...new Set([...sort.map((s) => s.i), ...named.map((r) => r.i)])];
  const { indexKeys, pairPart } = withPair(used, any ? undefined : pairQuery(specs, options));
  const keys: Record<string, number> = {};
  indexKeys.forEach((index, at) => {
    keys[index] = 5 + at;
  });
  const fingerprint = queryFingerprint(any ? { sort, pos, neg, any } : { sort, pos, neg });
  const { limit, skipped, ...page } = pageOf(options, fingerprint, sort.length);
  const query: ListScriptQuery = {
    indexes: used,
    keys,
    pos,
    neg,
    sort,
    ...page,
    ordered: used.filter((index) => isOrdered(known(index, 'index'))),
    ...pairPart,
    ...(any && unionPart(any, pos, neg, sort, known)),
  };
  const range = any ? undefined : answeringRange(pos, neg, sort, known);
  if (range) query.range = true;
  return { query, indexKeys, range, fingerprint, limit, skipped };
}

/** Where the page starts (an offset, or after a continue token's position) and how many items the script collects. */
function pageOf(options: ListOptions, fingerprint: string, sortKeys: number) {
  const limit = countOption(options.limit, 'limit');
  const resumed = options.continue ? decodeContinue(options.continue, fingerprint, sortKeys) : undefined;
  const offset = resumed ? 0 : (countOption(options.offset, 'offset') ?? 0);
  const want = limit === undefined ? -1 : limit === 0 ? 0 : limit + 1;
  const after = resumed && { after: resumed.position };
  return { limit, offset, want, ...after, skipped: resumed ? resumed.listed : offset };
}

/** A union's part of the query: its alternatives, and whether its page is a merge of ordered ranges. */
function unionPart(
  any: { pos: ScriptRequirement[]; neg: ScriptRequirement[] }[],
  pos: readonly ScriptRequirement[],
  neg: readonly ScriptRequirement[],
  sort: readonly { i: string; d: boolean }[],
  known: IndexLookup,
): Pick<ListScriptQuery, 'any' | 'merge'> {
  return mergesRanges(any, pos, neg, sort, known) ? { any, merge: true } : { any };
}

/** The sorted sets a query reads (those it names, then the pair index answering it), and its `pair` part. */
function withPair(used: string[], pair: PairQuery | undefined) {
  if (pair === undefined) return { indexKeys: used, pairPart: {} };
  return { indexKeys: [...used, pair.index], pairPart: { pair: { i: pair.index, f: pair.filter, v: pair.value } } };
}

/** Finds an index's spec by name; Invalid (naming the type's indexes) when there is none. */
type IndexLookup = (index: string, usedIn: string) => IndexSpec;

function indexLookup(type: ResourceType, specs: readonly IndexSpec[]): IndexLookup {
  const byName = new Map(specs.map((s) => [s.name, s]));
  return (index, usedIn) => {
    const spec = byName.get(index);
    if (spec === undefined) {
      throw unknownIndex(type, index, usedIn, [...byName.keys()]);
    }
    return spec;
  };
}

/** The selectors as requirements an object must meet (`pos`) or must not (`neg`). */
function requirements(
  options: Pick<ListOptions, 'labelSelector' | 'fieldSelector'>,
  known: IndexLookup,
  usedIn = 'fieldSelector',
): { pos: ScriptRequirement[]; neg: ScriptRequirement[] } {
  const pos: ScriptRequirement[] = [];
  const neg: ScriptRequirement[] = [];
  for (const req of options.labelSelector ?? []) {
    const [target, requirement] = labelRequirement(req);
    (target === 'pos' ? pos : neg).push(requirement);
  }
  for (const req of options.fieldSelector ?? []) {
    known(req.field, usedIn);
    (req.op === 'in' ? pos : neg).push(fieldRequirement(req));
  }
  return { pos, neg };
}

/** The sort keys (the default order when none is given), each with its direction resolved. */
function sortOf(type: ResourceType, options: ListOptions, known: IndexLookup): { i: string; d: boolean }[] {
  const sortKeys = options.sort !== undefined && options.sort.length > 0 ? options.sort : DEFAULT_SORT;
  return sortKeys.map((key) => {
    const spec = known(key.index, 'sort');
    return { i: key.index, d: sortDirection(type, key, spec) === 'desc' };
  });
}

/**
 * The range of an ordered index that holds exactly the matches of a query in
 * its order: one equality (one value) on an ordered index, in the default order.
 */
function answeringRange(
  pos: readonly ScriptRequirement[],
  neg: readonly ScriptRequirement[],
  sort: readonly { i: string; d: boolean }[],
  known: IndexLookup,
): EqualityRange | undefined {
  const defaultOrder = sort.length === 1 && sort[0].i === CREATION_INDEX && sort[0].d;
  if (pos.length !== 1 || neg.length !== 0 || !defaultOrder) return undefined;
  const [req] = pos;
  if (req.v.length !== 1 || req.p !== undefined || !isOrdered(known(req.i, 'index'))) return undefined;
  return { index: req.i, value: req.v[0] };
}

/** Whether a union's page is a merge of ordered ranges: see `ListScriptQuery.merge`. */
function mergesRanges(
  any: readonly { pos: ScriptRequirement[]; neg: ScriptRequirement[] }[],
  pos: readonly ScriptRequirement[],
  neg: readonly ScriptRequirement[],
  sort: readonly { i: string; d: boolean }[],
  known: IndexLookup,
): boolean {
  const defaultOrder = sort.length === 1 && sort[0].i === CREATION_INDEX && sort[0].d;
  return (
    defaultOrder &&
    pos.length === 0 &&
    neg.length === 0 &&
    any.every(
      (alt) =>
        alt.neg.length === 0 &&
        alt.pos.length === 1 &&
        alt.pos[0].v.length === 1 &&
        alt.pos[0].p === undefined &&
        isOrdered(known(alt.pos[0].i, 'index')),
    )
  );
}

/** A label requirement as a requirement on the labels index, whose values are `key=value` (as stored). */
function labelRequirement(req: LabelRequirement): ['pos' | 'neg', ScriptRequirement] {
  // An object has one value per label key, so it holds at most one member of any of these.
  const values = distinct(req.values).map((v) => storedValue(`${req.key}=${v}`));
  switch (req.op) {
    case 'in':
      return ['pos', { i: LABELS_INDEX, v: values, one: true }];
    case 'notin':
      return ['neg', { i: LABELS_INDEX, v: values, one: true }];
    case 'exists':
      return ['pos', { i: LABELS_INDEX, v: [], p: storedValue(`${req.key}=`), one: true }];
    case '!exists':
      return ['neg', { i: LABELS_INDEX, v: [], p: storedValue(`${req.key}=`), one: true }];
  }
}

/** A field requirement, its values as stored; only the name index is known to hold one value per object. */
function fieldRequirement(req: FieldRequirement): ScriptRequirement {
  const requirement: ScriptRequirement = { i: req.field, v: distinct(req.values).map(storedValue) };
  if (req.field === NAME_INDEX) requirement.one = true;
  return requirement;
}

const distinct = (values: readonly string[]): string[] => [...new Set(values)];
