import { CREATION_INDEX, DEFAULT_INDEXES, LABELS_INDEX, type IndexSpec } from '../indexes';
import type { ListOptions } from '../query';
import { equalityRange, rangeNames } from './equality-range';
import { IndexTable } from './index-table';

const color: IndexSpec = { name: 'spec.color', valueSets: true, indexFunc: () => undefined };
const size: IndexSpec = { name: 'spec.size', indexFunc: () => undefined };
const tables = new Map([...DEFAULT_INDEXES, color, size].map((spec) => [spec.name, new IndexTable(spec)]));
const table = (index: string) => tables.get(index) as IndexTable;

describe('equalityRange', () => {
  it('answers one equality on an ordered index in the default order, every other shape not', () => {
    const gold = { key: 'tier', op: 'in' as const, values: ['gold'] };
    const red = { field: 'spec.color', op: 'in' as const, values: ['red'] };
    const answered = (options: ListOptions) => {
      const range = equalityRange(options, table);
      return range && { index: range.table.name, value: range.value };
    };
    expect(answered({ labelSelector: [gold] })).toEqual({ index: LABELS_INDEX, value: 'tier=gold' });
    expect(answered({ labelSelector: [{ ...gold, values: ['gold', 'gold'] }] })).toEqual({
      index: LABELS_INDEX,
      value: 'tier=gold',
    });
    expect(answered({ fieldSelector: [red], sort: [{ index: CREATION_INDEX, direction: 'desc' }] })).toEqual({
      index: 'spec.color',
      value: 'red',
    });
    for (const options of [
      {},
      { labelSelector: [{ ...gold, values: ['gold', 'silver'] }] },
      { labelSelector: [{ key: 'tier', op: 'exists' as const, values: [] }] },
      { labelSelector: [{ ...gold, op: 'notin' as const }] },
      { labelSelector: [gold], fieldSelector: [red] },
      { labelSelector: [gold], sort: [{ index: CREATION_INDEX, direction: 'asc' as const }] },
      { labelSelector: [gold], sort: [{ index: 'spec.color', direction: 'desc' as const }] },
      { fieldSelector: [{ field: 'spec.size', op: 'in' as const, values: ['large'] }] },
    ] satisfies ListOptions[]) {
      expect({ options, answered: answered(options) }).toEqual({ options, answered: undefined });
    }
  });

  it('reads the range newest first, then by name, without a timestamp last, from after a position', () => {
    const t = new IndexTable(color);
    t.set('old', ['red'], '2026-01-01T00:00:00Z');
    t.set('b', ['red'], '2026-01-02T00:00:00Z');
    t.set('a', ['red'], '2026-01-02T00:00:00Z');
    t.set('none', ['red']);
    t.set('blue', ['blue'], '2026-01-03T00:00:00Z');
    const range = { table: t, value: 'red' };
    expect(rangeNames(range, 10)).toEqual(['a', 'b', 'old', 'none']);
    expect(rangeNames(range, 2)).toEqual(['a', 'b']);
    expect(rangeNames(range, 10, { s: ['2026-01-02T00:00:00Z', 'a'], n: 'a' })).toEqual(['b', 'old', 'none']);
    expect(rangeNames(range, 10, { s: [false, 'gone'], n: 'gone' })).toEqual(['none']);
    t.set('b', ['blue'], '2026-01-02T00:00:00Z');
    t.delete('old');
    expect(rangeNames(range, 10)).toEqual(['a', 'none']);
  });
});
