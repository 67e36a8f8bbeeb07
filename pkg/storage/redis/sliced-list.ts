import { NAME_INDEX } from '../indexes';
import type { ListPosition } from '../continue-token';
import { compareBytes } from '../byte-order';
import type { ListScriptQuery, PlannedList } from './list-query';

/** One list script call: the query's sorted sets in order, then the query. */
export type ListCall = (indexKeys: string[], query: ListScriptQuery) => Promise<(string | number)[]>;

/** A match a slice found: its name and its values of every sort key. */
interface Match {
  name: string;
  values: string[][];
}

/** What a sliced list answers, in the shape of the list script's reply: revision, total, position, items' names. */
export interface SlicedPage {
  revision: string;
  total: number;
  position: ListPosition | undefined;
  names: string[];
}

/**
 * A list whose plan reads more than one script should (the script answered
 * SLICE), read in slices: each call reads at most `size` members of the
 * query's smallest positive requirement (every object, by the name index,
 * when there is none) and returns the matches with their sort values; the
 * matches are then sorted here and paged as the script would. Redis runs
 * several short scripts instead of one long one.
 *
 * The slices are not one snapshot: the revision is the first slice's, and an
 * object written while the slices are read may be listed as it was or as it
 * is, or be missed if the write moved it into a slice already read (a watch
 * from the revision replays every such write). Items are read after the last
 * slice; an object deleted meanwhile is left out of the page.
 */
export async function slicedList(plan: PlannedList, size: number, call: ListCall): Promise<SlicedPage> {
  const indexKeys = plan.indexKeys.includes(NAME_INDEX) ? plan.indexKeys : [...plan.indexKeys, NAME_INDEX];
  const keys: Record<string, number> = {};
  indexKeys.forEach((index, at) => {
    keys[index] = 5 + at;
  });
  const matches = new Map<string, string[][]>();
  let revision: string | undefined;
  let state: unknown = {};
  while (state !== undefined) {
    const reply = await call(indexKeys, { ...plan.query, keys, slice: state, size });
    if (reply[0] !== 'OK') return Promise.reject(new SliceInterrupted(reply));
    revision ??= String(reply[1]);
    state = reply[2] ? (JSON.parse(String(reply[2])) as unknown) : undefined;
    for (let at = 3; at < reply.length; at += 2) matches.set(String(reply[at]), sortValues(String(reply[at + 1])));
  }
  return page(
    plan,
    [...matches].map(([name, values]) => ({ name, values })),
    revision ?? '0',
  );
}

/** A slice answered something else than OK (an index being built): the reply, for the caller to report. */
export class SliceInterrupted extends Error {
  constructor(readonly reply: (string | number)[]) {
    super(`list slice answered ${String(reply[0])}`);
  }
}

/** The sort values JSON of a slice (Lua encodes an empty list as `{}`). */
function sortValues(json: string): string[][] {
  const parsed = JSON.parse(json) as unknown[];
  return Object.values(parsed).map((values) => (Array.isArray(values) ? (values as string[]) : []));
}

/** Sorts the matches, skips to the continue position or offset, and cuts the page (with one more to see past it). */
function page(plan: PlannedList, matches: Match[], revision: string): SlicedPage {
  const { sort, after, offset, want } = plan.query;
  const tuples = new Map(matches.map((m) => [m.name, tupleOf(sort, m.values)]));
  const compare = (a: string, b: string) => compareTuples(sort, tuples.get(a)!, a, tuples.get(b)!, b);
  let names = matches.map((m) => m.name).sort(compare);
  if (after !== undefined)
    names = names.filter((name) => compareTuples(sort, after.s, after.n, tuples.get(name)!, name) < 0);
  else names = names.slice(offset);
  const taken = want < 0 ? names : names.slice(0, want);
  let position: ListPosition | undefined;
  if (want > 0 && taken.length >= want) {
    taken.pop();
    const last = taken[taken.length - 1];
    position = { s: tuples.get(last)!, n: last };
  }
  return { revision, total: matches.length, position, names: taken };
}

/** An object's value for each sort key: its smallest ascending, its largest descending; false when none. */
function tupleOf(sort: ListScriptQuery['sort'], values: string[][]): (string | false)[] {
  return sort.map((key, k) => {
    const held = [...(values[k] ?? [])].sort(compareBytes);
    if (held.length === 0) return false;
    return key.d ? held[held.length - 1] : held[0];
  });
}

/** The list order: each key in its direction (no value last either way), then the name, in byte order. */
function compareTuples(
  sort: ListScriptQuery['sort'],
  a: (string | false)[],
  nameA: string,
  b: (string | false)[],
  nameB: string,
): number {
  for (let k = 0; k < sort.length; k++) {
    const [x, y] = [a[k], b[k]];
    if (x === y) continue;
    if (x === false || y === false) return x === false ? 1 : -1;
    const order = compareBytes(x, y);
    if (order !== 0) return sort[k].d ? -order : order;
  }
  return compareBytes(nameA, nameB);
}
