import { DEFAULT_INDEXES, withDefaultIndexes } from '../indexes';
import { isStorageError } from '../errors';
import { planList } from './list-query';

const specs = withDefaultIndexes([{ name: 'spec.color', order: 'DESC', indexFunc: () => undefined }]);

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
