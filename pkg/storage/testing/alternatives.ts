import type { ApiObject } from '../../api/object';
import type { Storage } from '../interface';
import type { Alternative, FieldRequirement, LabelRequirement, ListOptions, SortKey } from '../query';
import { COLOR_INDEX, createAll, listNames, RANK_INDEX, specOf, TAGS_INDEX, widget } from './fixtures';
import { expectStorageError } from './expect-error';
import type { Harness } from './harness';

const label = (key: string, op: LabelRequirement['op'], ...values: string[]): LabelRequirement => ({ key, op, values });
const field = (name: string, op: FieldRequirement['op'], ...values: string[]): FieldRequirement => ({
  field: name,
  op,
  values,
});
const pad = (n: number) => String(n).padStart(2, '0');

/** u01…u16: odd/even colors, tag x on every third (and y on every fifth), teams a/b, one rank missing. */
const population = (): ApiObject[] =>
  Array.from({ length: 16 }, (_, k) => {
    const i = k + 1;
    const tags = [...(i % 3 === 0 ? ['x'] : []), ...(i % 5 === 0 ? ['y'] : [])];
    const team = ['a', 'b', undefined, undefined][i % 4];
    return widget(
      `u${pad(i)}`,
      { color: i % 2 ? 'odd' : 'even', tags, rank: i === 7 ? undefined : pad((i * 5) % 17) },
      team ? { team } : undefined,
    );
  });

/** Odd colors, or a tag x or y: u03, u09 and u15 meet both alternatives, u15 with both of its tags. */
const oddOrTagged: Alternative[] = [
  { fieldSelector: [field(COLOR_INDEX, 'in', 'odd')] },
  { fieldSelector: [field(TAGS_INDEX, 'in', 'x', 'y')] },
];
const oddOrTaggedNames = (objects: ApiObject[]) =>
  objects
    .filter((o) => specOf(o).color === 'odd' || (specOf(o).tags ?? []).some((t) => t === 'x' || t === 'y'))
    .map((o) => o.metadata.name ?? '');

/** The names in the order of `sort` (rank: missing last either way), then by name. */
function sortedBy(objects: ApiObject[], names: string[], sort: SortKey | undefined): string[] {
  const byName = new Map(objects.map((o) => [o.metadata.name ?? '', o]));
  const rank = (name: string) => specOf(byName.get(name)!).rank;
  const byRank = (a: string, b: string) => compareRanks(rank(a), rank(b), sort?.direction === 'desc');
  return [...names].sort((a, b) => (sort?.index === RANK_INDEX ? byRank(a, b) : 0) || compareText(a, b));
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Ranks in a direction, a missing one last either way. */
function compareRanks(x: string | undefined, y: string | undefined, descending: boolean): number {
  if (x === y) return 0;
  if (x === undefined || y === undefined) return x === undefined ? 1 : -1;
  return compareText(x, y) * (descending ? -1 : 1);
}

/** Follows continue tokens with `limit`, checking every page's total, and returns every name in order. */
async function walk(storage: Storage, type: string, options: ListOptions, limit: number, total: number, from?: string) {
  const names: string[] = [];
  let token = from;
  do {
    const page = await storage.list(type, { ...options, limit, continue: token });
    expect(page.total).toBe(total);
    expect(page.items.length).toBeLessThanOrEqual(limit);
    names.push(...page.items.map((o) => o.metadata.name ?? ''));
    token = page.continue;
    if (names.length > 100) throw new Error('continue tokens never ran out');
  } while (token !== undefined);
  return names;
}

/** Lists with alternatives (`anyOf`): a union of conjunctions ANDed with the list's own requirements. */
export function describeAlternatives(h: Harness): void {
  describe('alternatives (anyOf)', () => {
    async function stored() {
      const { storage, type } = await h.widgets();
      const objects = population();
      await createAll(storage, type, objects);
      return { storage, type, objects };
    }
    const byName: ListOptions = { sort: [{ index: 'metadata.name', direction: 'asc' }] };

    it('lists an object meeting several alternatives once, and counts it once', async () => {
      const { storage, type, objects } = await stored();
      const expected = oddOrTaggedNames(objects);
      expect(expected).toEqual(['u01', 'u03', 'u05', 'u06', 'u07', 'u09', 'u10', 'u11', 'u12', 'u13', 'u15']);
      const result = await storage.list(type, { ...byName, anyOf: oddOrTagged });
      expect({ names: result.items.map((o) => o.metadata.name), total: result.total }).toEqual({
        names: expected,
        total: expected.length,
      });
    });

    it('narrows every alternative by the list’s own requirements, which cannot widen the union', async () => {
      const { storage, type } = await stored();
      const teamA = await listNames(storage, type, {
        ...byName,
        labelSelector: [label('team', 'in', 'a')],
        anyOf: oddOrTagged,
      });
      expect(teamA).toEqual(['u12']);
      const notOdd = await storage.list(type, {
        ...byName,
        fieldSelector: [field(COLOR_INDEX, 'notin', 'odd')],
        anyOf: oddOrTagged,
      });
      expect({ names: notOdd.items.map((o) => o.metadata.name), total: notOdd.total }).toEqual({
        names: ['u06', 'u10', 'u12'],
        total: 3,
      });
      const elsewhere = await storage.list(type, {
        fieldSelector: [field(COLOR_INDEX, 'in', 'blue')],
        anyOf: oddOrTagged,
      });
      expect(elsewhere.total).toBe(0);
    });

    it('walks the union with limit and continue in every sort order, each page with the exact total', async () => {
      const { storage, type, objects } = await stored();
      const expected = oddOrTaggedNames(objects);
      const sorts: (SortKey | undefined)[] = [
        { index: 'metadata.name', direction: 'asc' },
        { index: RANK_INDEX, direction: 'asc' },
        { index: RANK_INDEX, direction: 'desc' },
      ];
      for (const sort of sorts) {
        const options: ListOptions = { anyOf: oddOrTagged, sort: sort && [sort] };
        for (const limit of [1, 3, 5]) {
          const names = await walk(storage, type, options, limit, expected.length);
          expect({ sort, limit, names }).toEqual({ sort, limit, names: sortedBy(objects, expected, sort) });
        }
      }
      // The default order: newest first, every object once.
      const newestFirst = await walk(storage, type, { anyOf: oddOrTagged }, 4, expected.length);
      expect([...newestFirst].sort()).toEqual(expected);
    });

    it('pages a union of one-value alternatives on ordered indexes in the default order, newest first', async () => {
      const { storage, type } = await stored();
      const anyOf: Alternative[] = [
        { fieldSelector: [field(COLOR_INDEX, 'in', 'odd')] },
        { labelSelector: [label('team', 'in', 'a')] },
        { labelSelector: [label('team', 'in', 'b')] },
      ];
      // u01, u05, u09, u13 are odd and in team b: listed once each.
      const everything = (await storage.list(type)).items;
      const expected = everything
        .filter((o) => specOf(o).color === 'odd' || o.metadata.labels?.team !== undefined)
        .map((o) => o.metadata.name ?? '');
      expect(expected).toHaveLength(12);
      for (const limit of [1, 4, 5, 20]) {
        expect({ limit, names: await walk(storage, type, { anyOf }, limit, 12) }).toEqual({ limit, names: expected });
      }
      const page = await storage.list(type, { anyOf, offset: 5, limit: 4 });
      expect({ names: page.items.map((o) => o.metadata.name), total: page.total }).toEqual({
        names: expected.slice(5, 9),
        total: 12,
      });
      const all = await storage.list(type, { anyOf, offset: 10 });
      expect(all.items.map((o) => o.metadata.name)).toEqual(expected.slice(10));
    });

    it('pages the union by offset and limit', async () => {
      const { storage, type, objects } = await stored();
      const expected = oddOrTaggedNames(objects);
      const page = await storage.list(type, { ...byName, anyOf: oddOrTagged, offset: 4, limit: 3 });
      expect({ names: page.items.map((o) => o.metadata.name), total: page.total }).toEqual({
        names: expected.slice(4, 7),
        total: expected.length,
      });
    });

    it('takes label requirements, existence and exclusions inside an alternative that names values', async () => {
      const { storage, type } = await stored();
      const anyOf: Alternative[] = [
        { labelSelector: [label('team', 'in', 'a')], fieldSelector: [field(RANK_INDEX, 'notin', '03')] },
        {
          labelSelector: [label('team', 'exists'), label('team', 'notin', 'a')],
          fieldSelector: [field(TAGS_INDEX, 'in', 'y')],
        },
      ];
      // team a: u04 (rank 03, left out), u08, u12, u16; team b with tag y: u05.
      expect(await listNames(storage, type, { ...byName, anyOf })).toEqual(['u05', 'u08', 'u12', 'u16']);
    });

    it('takes an alternative that only excludes when the list itself names values', async () => {
      const { storage, type } = await stored();
      const anyOf: Alternative[] = [
        { labelSelector: [label('team', '!exists')] },
        { fieldSelector: [field(TAGS_INDEX, 'in', 'x')] },
      ];
      const result = await storage.list(type, { ...byName, fieldSelector: [field(COLOR_INDEX, 'in', 'even')], anyOf });
      // Even without a team: u02, u06, u10, u14; even with tag x: u06, u12.
      expect({ names: result.items.map((o) => o.metadata.name), total: result.total }).toEqual({
        names: ['u02', 'u06', 'u10', 'u12', 'u14'],
        total: 5,
      });
    });

    it('refuses an alternative that only excludes in a list that names no values (Invalid)', async () => {
      const { storage, type } = await stored();
      const anyOf: Alternative[] = [
        { fieldSelector: [field(COLOR_INDEX, 'notin', 'odd')] },
        { labelSelector: [label('team', 'in', 'a')] },
      ];
      const err = await expectStorageError(storage.list(type, { anyOf }), 'Invalid');
      expect(err.message).toContain('anyOf[0]');
    });

    it('matches nothing with no alternatives, and everything the list does with an empty one', async () => {
      const { storage, type } = await stored();
      const none = await storage.list(type, { anyOf: [] });
      expect({ items: none.items, total: none.total }).toEqual({ items: [], total: 0 });
      const all = await storage.list(type, { anyOf: [{}, { labelSelector: [label('team', 'in', 'a')] }] });
      expect(all.total).toBe(16);
      // An alternative the list already requires adds nothing either.
      const teamB: ListOptions = { labelSelector: [label('team', 'in', 'b')] };
      const implied = await storage.list(type, {
        ...teamB,
        anyOf: [teamB, { fieldSelector: [field(TAGS_INDEX, 'in', 'x')] }],
      });
      expect(implied.total).toBe(4);
    });

    it('refuses a field no index holds, and a continue token of another union (Invalid)', async () => {
      const { storage, type } = await stored();
      const unindexed = await expectStorageError(
        storage.list(type, { anyOf: [{ fieldSelector: [field('spec.note', 'in', 'x')] }, ...oddOrTagged] }),
        'Invalid',
      );
      expect(unindexed.message).toContain('spec.note');
      const first = await storage.list(type, { ...byName, anyOf: oddOrTagged, limit: 2 });
      const other: Alternative[] = [oddOrTagged[0], { labelSelector: [label('team', 'in', 'a')] }];
      await expectStorageError(
        storage.list(type, { ...byName, anyOf: other, limit: 2, continue: first.continue }),
        'Invalid',
      );
    });

    it('sees writes between pages as any keyset walk does: no item repeated', async () => {
      const { storage, type } = await stored();
      const first = await storage.list(type, { ...byName, anyOf: oddOrTagged, limit: 4 });
      await storage.create(type, widget('u00', { color: 'odd' }));
      await storage.update(type, 'u13', (o) => ({ ...o, spec: { ...specOf(o), color: 'even' } }));
      const rest = await walk(storage, type, { ...byName, anyOf: oddOrTagged }, 4, 11, first.continue);
      const names = [...first.items.map((o) => o.metadata.name), ...rest];
      expect(names).toEqual(['u01', 'u03', 'u05', 'u06', 'u07', 'u09', 'u10', 'u11', 'u12', 'u15']);
    });
  });
}
