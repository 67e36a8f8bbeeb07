import type { LabelRequirement } from '../query';
import type { IndexTable } from './index-table';

/**
 * The objects a list's selectors accept, worked out from index tables alone.
 * `names` is set when the accepted objects were collected (some requirement
 * names values to look up); otherwise every object is accepted except those
 * that `has` rejects.
 */
export interface NameFilter {
  has(name: string): boolean;
  /** How many objects are accepted. */
  readonly size: number;
  readonly names?: ReadonlySet<string>;
}

/** A field requirement with its index table resolved. */
export interface TableRequirement {
  table: IndexTable;
  op: 'in' | 'notin';
  values: readonly string[];
}

/**
 * Builds the filter for ANDed label and field requirements (semantics of
 * `match.ts`). Every requirement is a set of names or that set's complement
 * (`notin`, `!exists`): the positive sets are intersected, smallest first, and
 * the complements subtracted, so no object is ever loaded or evaluated.
 *
 * @param labels the type's `metadata.labels` index, whose values are `key=value`
 * @param objectCount how many objects the type holds (for the size of a complement)
 */
export function buildNameFilter(
  labels: IndexTable,
  labelRequirements: readonly LabelRequirement[],
  fieldRequirements: readonly TableRequirement[],
  objectCount: number,
): NameFilter {
  const wanted: ReadonlySet<string>[] = [];
  const unwanted: ReadonlySet<string>[] = [];
  for (const req of labelRequirements) {
    const holders =
      req.op === 'exists' || req.op === '!exists'
        ? labels.namesWithPrefix(`${req.key}=`)
        : union(req.values.map((v) => labels.namesWith(`${req.key}=${v}`)));
    (req.op === 'in' || req.op === 'exists' ? wanted : unwanted).push(holders);
  }
  for (const req of fieldRequirements) {
    const holders = union(req.values.map((v) => req.table.namesWith(v)));
    (req.op === 'in' ? wanted : unwanted).push(holders);
  }
  if (wanted.length === 0) {
    const excluded = union(unwanted);
    return { has: (name) => !excluded.has(name), size: objectCount - excluded.size };
  }
  const names = intersect(wanted, unwanted);
  return { has: (name) => names.has(name), size: names.size, names };
}

/** Union of sets; a single set is returned as is (never changed afterwards). */
function union(sets: readonly ReadonlySet<string>[]): ReadonlySet<string> {
  if (sets.length === 1) return sets[0];
  const out = new Set<string>();
  for (const set of sets) for (const name of set) out.add(name);
  return out;
}

/** Names in every `wanted` set and in no `unwanted` set, walking the smallest wanted set. */
function intersect(wanted: readonly ReadonlySet<string>[], unwanted: readonly ReadonlySet<string>[]): Set<string> {
  const [smallest, ...others] = [...wanted].sort((a, b) => a.size - b.size);
  const out = new Set<string>();
  for (const name of smallest) {
    if (others.every((s) => s.has(name)) && !unwanted.some((s) => s.has(name))) out.add(name);
  }
  return out;
}
