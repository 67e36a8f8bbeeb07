import { CREATION_INDEX } from '../indexes';
import { soleEquality } from '../pair-indexes';
import type { ListPosition } from '../continue-token';
import type { ListOptions } from '../query';
import type { IndexTable } from './index-table';

/** One value of an ordered index whose objects, in its default order, are exactly a query's matches. */
export interface EqualityRange {
  table: IndexTable;
  value: string;
}

/**
 * The range that answers a query of one equality (`k=v`, `k in (v)`, `f=v`,
 * `f in (v)`) on an ordered index in the default order (ADR 0017), or
 * undefined for every other shape. `table` finds a named index's table.
 */
export function equalityRange(options: ListOptions, table: (index: string) => IndexTable): EqualityRange | undefined {
  if (!inDefaultOrder(options)) return undefined;
  const equality = soleEquality(options);
  if (equality === undefined) return undefined;
  const found = table(equality.index);
  return found.isOrdered ? { table: found, value: equality.value } : undefined;
}

/** The first `count` names of the range, after a continue position when given. */
export function rangeNames(range: EqualityRange, count: number, after?: ListPosition): string[] {
  const from = after && { created: after.s[0] === false ? undefined : after.s[0], name: after.n };
  const names: string[] = [];
  if (count <= 0) return names;
  for (const name of range.table.inDefaultOrder(range.value, from)) {
    names.push(name);
    if (names.length >= count) break;
  }
  return names;
}

const inDefaultOrder = ({ sort }: ListOptions): boolean =>
  sort === undefined ||
  sort.length === 0 ||
  (sort.length === 1 && sort[0].index === CREATION_INDEX && sort[0].direction === 'desc');
