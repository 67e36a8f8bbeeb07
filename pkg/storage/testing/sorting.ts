import { waitFor } from '../../../test/support/wait-for';
import type { ApiObject } from '../../api/object';
import type { SortKey } from '../query';
import { COLOR_INDEX, createAll, listNames, RANK_INDEX, TAGS_INDEX, widget } from './fixtures';
import type { Harness } from './harness';

const asc = (index: string): SortKey => ({ index, direction: 'asc' });
const desc = (index: string): SortKey => ({ index, direction: 'desc' });

const byCreationDescThenName = (a: ApiObject, b: ApiObject): number => {
  const [ta, tb] = [a.metadata.creationTimestamp ?? '', b.metadata.creationTimestamp ?? ''];
  if (ta !== tb) return ta < tb ? 1 : -1;
  return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
};

/** Sorting: the default order, custom indexes in both directions, several keys, missing values, ties. */
export function describeSorting(h: Harness): void {
  describe('sorting', () => {
    it('defaults to creationTimestamp descending', async () => {
      const { storage, type } = await h.widgets();
      const created: ApiObject[] = [];
      for (const name of ['a', 'b', 'c']) {
        const previous = created.at(-1)?.metadata.creationTimestamp;
        // Wait for the clock to pass the previous timestamp so that each object has its own.
        if (previous) await waitFor(() => Date.now() > Date.parse(previous), { what: 'the clock to move' });
        created.push(await storage.create(type, widget(name)));
      }
      const stamps = created.map((o) => o.metadata.creationTimestamp ?? '');
      expect([...new Set(stamps)].sort()).toEqual(stamps);
      expect(await listNames(storage, type)).toEqual(['c', 'b', 'a']);
    });

    it('breaks creationTimestamp ties by name ascending in the default order', async () => {
      const { storage, type } = await h.widgets();
      const created = await createAll(
        storage,
        type,
        ['f', 'e', 'd', 'c', 'b', 'a'].map((n) => widget(n)),
      );
      const expected = [...created].sort(byCreationDescThenName).map((o) => o.metadata.name);
      expect(await listNames(storage, type)).toEqual(expected);
    });

    async function ranked() {
      const { storage, type } = await h.widgets();
      // Created out of name order, so that a name tie-break cannot come from insertion order.
      await createAll(storage, type, [
        widget('n5', { color: 'blue', rank: '04' }),
        widget('n3', { color: 'red', rank: '02' }),
        widget('n7'),
        widget('n1', { color: 'red', rank: '03' }),
        widget('n6', { color: 'green' }),
        widget('n2', { color: 'blue', rank: '01' }),
        widget('n4', { rank: '05' }),
      ]);
      return { storage, type };
    }

    it('sorts by a custom index in both directions, objects without a value last, ties by name', async () => {
      const { storage, type } = await ranked();
      const cases: [string, SortKey[], string[]][] = [
        ['rank asc', [asc(RANK_INDEX)], ['n2', 'n3', 'n1', 'n5', 'n4', 'n6', 'n7']],
        ['rank desc', [desc(RANK_INDEX)], ['n4', 'n5', 'n1', 'n3', 'n2', 'n6', 'n7']],
        ['color asc', [asc(COLOR_INDEX)], ['n2', 'n5', 'n6', 'n1', 'n3', 'n4', 'n7']],
        ['color desc', [desc(COLOR_INDEX)], ['n1', 'n3', 'n6', 'n2', 'n5', 'n4', 'n7']],
        ['name desc', [desc('metadata.name')], ['n7', 'n6', 'n5', 'n4', 'n3', 'n2', 'n1']],
      ];
      for (const [title, sort, expected] of cases) {
        expect({ title, names: await listNames(storage, type, { sort }) }).toEqual({ title, names: expected });
      }
    });

    it('sorts by several keys in priority order', async () => {
      const { storage, type } = await ranked();
      const cases: [string, SortKey[], string[]][] = [
        ['color asc, rank desc', [asc(COLOR_INDEX), desc(RANK_INDEX)], ['n5', 'n2', 'n6', 'n1', 'n3', 'n4', 'n7']],
        ['color desc, rank asc', [desc(COLOR_INDEX), asc(RANK_INDEX)], ['n3', 'n1', 'n6', 'n2', 'n5', 'n4', 'n7']],
      ];
      for (const [title, sort, expected] of cases) {
        expect({ title, names: await listNames(storage, type, { sort }) }).toEqual({ title, names: expected });
      }
    });

    it('sorts only the objects a selector matches', async () => {
      const { storage, type } = await ranked();
      const result = await storage.list(type, {
        fieldSelector: [{ field: COLOR_INDEX, op: 'in', values: ['red', 'blue'] }],
        sort: [desc(RANK_INDEX)],
      });
      expect(result.items.map((o) => o.metadata.name)).toEqual(['n5', 'n1', 'n3', 'n2']);
      expect(result.total).toBe(4);
    });

    it('sorts a multi-valued index by the smallest value ascending and the largest descending', async () => {
      const { storage, type } = await h.widgets();
      await createAll(storage, type, [
        widget('t3', { tags: ['e', 'd'] }),
        widget('t4'),
        widget('t1', { tags: ['b', 'a'] }),
        widget('t2', { tags: ['z', 'c'] }),
      ]);
      expect(await listNames(storage, type, { sort: [asc(TAGS_INDEX)] })).toEqual(['t1', 't2', 't3', 't4']);
      expect(await listNames(storage, type, { sort: [desc(TAGS_INDEX)] })).toEqual(['t2', 't3', 't1', 't4']);
    });
  });
}
