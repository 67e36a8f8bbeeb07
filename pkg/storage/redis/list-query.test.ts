import { DEFAULT_INDEXES, withDefaultIndexes } from '../indexes';
import { isStorageError } from '../errors';
import type { ListOptions } from '../query';
import { planList } from './list-query';

const specs = withDefaultIndexes([
  { name: 'spec.color', order: 'DESC', valueSets: true, indexFunc: () => undefined },
  { name: 'spec.code', unique: true, valueSets: true, indexFunc: () => undefined },
  { name: 'spec.size', indexFunc: () => undefined },
]);

describe('planList', () => {
  it('turns label requirements into requirements on the labels index, one value per key', () => {
    const { query } = planList('widgets', specs, {
      labelSelector: [
        { key: 'env', op: 'in', values: ['prod', 'dev', 'prod'] },
        { key: 'tier', op: 'notin', values: ['web'] },
        { key: 'team', op: 'exists', values: [] },
        { key: 'gone', op: '!exists', values: [] },
      ],
    });
    expect(query.pos).toEqual([
      { i: 'metadata.labels', v: ['env=prod', 'env=dev'], one: true },
      { i: 'metadata.labels', v: [], p: 'team=', one: true },
    ]);
    expect(query.neg).toEqual([
      { i: 'metadata.labels', v: ['tier=web'], one: true },
      { i: 'metadata.labels', v: [], p: 'gone=', one: true },
    ]);
  });

  it('sorts by creationTimestamp descending by default, and by an index in its own order when no direction is given', () => {
    expect(planList('widgets', specs).query.sort).toEqual([{ i: 'metadata.creationTimestamp', d: true }]);
    const sort = [{ index: 'spec.color' } as { index: string; direction: 'asc' }];
    expect(planList('widgets', specs, { sort }).query.sort).toEqual([{ i: 'spec.color', d: true }]);
  });

  it('answers one equality on an ordered index in the default order from a range of it, every other shape not', () => {
    const gold = { key: 'tier', op: 'in' as const, values: ['gold'] };
    const red = { field: 'spec.color', op: 'in' as const, values: ['red'] };
    const answered = (options: ListOptions) => planList('widgets', specs, options).range;
    expect(answered({ labelSelector: [gold], limit: 20 })).toEqual({ index: 'metadata.labels', value: 'tier=gold' });
    expect(
      answered({ fieldSelector: [red], sort: [{ index: 'metadata.creationTimestamp', direction: 'desc' }] }),
    ).toEqual({ index: 'spec.color', value: 'red' });
    const plan = planList('widgets', specs, { labelSelector: [gold] });
    expect({ range: plan.query.range, ordered: plan.query.ordered }).toEqual({
      range: true,
      ordered: ['metadata.labels'],
    });
    for (const options of [
      {},
      { labelSelector: [{ ...gold, values: ['gold', 'silver'] }] },
      { labelSelector: [{ key: 'tier', op: 'exists' as const, values: [] }] },
      { labelSelector: [gold], fieldSelector: [red] },
      { labelSelector: [gold, { key: 'env', op: 'notin' as const, values: ['dev'] }] },
      { labelSelector: [gold], sort: [{ index: 'metadata.creationTimestamp', direction: 'asc' as const }] },
      { labelSelector: [gold], sort: [{ index: 'spec.color', direction: 'desc' as const }] },
      { fieldSelector: [{ field: 'spec.code', op: 'in' as const, values: ['c1'] }] },
      { fieldSelector: [{ field: 'spec.size', op: 'in' as const, values: ['large'] }] },
      { fieldSelector: [{ field: 'metadata.name', op: 'in' as const, values: ['ada'] }] },
    ] satisfies ListOptions[]) {
      expect({ options, answered: answered(options) }).toEqual({ options, answered: undefined });
      expect(planList('widgets', specs, options).query.range).toBeUndefined();
    }
  });

  it('asks for one item more than the limit, to know whether a next page exists', () => {
    expect(planList('widgets', specs, { limit: 20 }).query.want).toBe(21);
    expect(planList('widgets', specs, { limit: 0 }).query.want).toBe(0);
    expect(planList('widgets', specs).query.want).toBe(-1);
  });

  it('is Invalid for a field or sort that is no index, naming it and the indexes', () => {
    for (const options of [
      { fieldSelector: [{ field: 'spec.size', op: 'in' as const, values: ['L'] }] },
      { sort: [{ index: 'spec.size', direction: 'asc' as const }] },
    ]) {
      let error: unknown;
      try {
        planList('widgets', DEFAULT_INDEXES, options);
      } catch (err) {
        error = err;
      }
      expect(isStorageError(error, 'Invalid')).toBe(true);
      expect((error as Error).message).toContain('spec.size');
      expect((error as Error).message).toContain('metadata.labels');
    }
  });

  it('is Invalid for a negative or fractional offset or limit', () => {
    for (const options of [{ offset: -1 }, { limit: 1.5 }]) {
      expect(() => planList('widgets', specs, options)).toThrow(/non-negative integer/);
    }
  });
});
