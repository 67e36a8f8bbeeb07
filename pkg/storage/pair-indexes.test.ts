import { LABELS_INDEX, type IndexSpec } from './indexes';
import { pairIndexName, pairQuery, pairValues, storedIndexes } from './pair-indexes';

const AGE: IndexSpec = {
  name: 'spec.age',
  filteredBy: [LABELS_INDEX],
  indexFunc: (o) => String((o.spec as { age?: number }).age),
};

describe('pair indexes', () => {
  it('pair every filter value with every sort value, the objects without a sort value after them', () => {
    expect(pairValues(['tier=gold', 'team=a'], ['07', '12'])).toEqual([
      'tier=gold\x0107',
      'tier=gold\x0112',
      'team=a\x0107',
      'team=a\x0112',
    ]);
    expect(pairValues(['tier=gold'], [])).toEqual(['tier=gold\x02']);
    expect(pairValues([], ['07'])).toEqual([]);
    // A filter value holding a separator byte would break the order: it is left out.
    expect(pairValues(['odd\x01value', 'tier=gold'], ['07'])).toEqual(['tier=gold\x0107']);
  });

  it('adds one hidden index per declared pair, after the type indexes', () => {
    const names = storedIndexes([AGE]).map((s) => s.name);
    expect(names.slice(-2)).toEqual(['spec.age', pairIndexName(LABELS_INDEX, 'spec.age')]);
  });

  it('answers only one equality on the filter sorted first by the paired index', () => {
    const specs = storedIndexes([AGE]);
    const gold = { labelSelector: [{ key: 'tier', op: 'in' as const, values: ['gold'] }] };
    const byAge = [{ index: 'spec.age', direction: 'desc' as const }];
    expect(pairQuery(specs, { ...gold, sort: byAge })).toEqual({
      index: pairIndexName(LABELS_INDEX, 'spec.age'),
      filter: LABELS_INDEX,
      value: 'tier=gold',
    });
    expect(pairQuery(specs, gold)).toBeUndefined();
    expect(pairQuery(specs, { ...gold, sort: [{ index: 'metadata.name', direction: 'asc' }] })).toBeUndefined();
    const twoValues = { labelSelector: [{ key: 'tier', op: 'in' as const, values: ['gold', 'silver'] }] };
    expect(pairQuery(specs, { ...twoValues, sort: byAge })).toBeUndefined();
  });
});
