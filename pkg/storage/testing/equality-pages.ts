import type { ApiObject } from '../../api/object';
import type { ResourceType, Storage } from '../interface';
import type { ListOptions } from '../query';
import { CREATION_INDEX } from '../indexes';
import { COLOR_INDEX, listNames, namesOf, RANK_INDEX, specOf, TAGS_INDEX, TEST_INDEXES, widget } from './fixtures';
import type { Harness } from './harness';
import { seededRandom } from './seeded-random';

const TIERS = ['gold', 'silver', 'bronze'];
const TAGS = ['t1', 't2', 't3', 't4'];
const COLORS = ['red', 'blue'];

/** A query with one equality, in the default order, and which objects it matches. */
type EqualityQuery = [title: string, options: ListOptions, matches: (o: ApiObject) => boolean];

const QUERIES: EqualityQuery[] = [
  [
    'tier=gold',
    { labelSelector: [{ key: 'tier', op: 'in', values: ['gold'] }] },
    (o) => o.metadata.labels?.tier === 'gold',
  ],
  [
    'tier=bronze',
    { labelSelector: [{ key: 'tier', op: 'in', values: ['bronze'] }] },
    (o) => o.metadata.labels?.tier === 'bronze',
  ],
  [
    'tags=t2 (multi-valued)',
    { fieldSelector: [{ field: TAGS_INDEX, op: 'in', values: ['t2'] }] },
    (o) => (specOf(o).tags ?? []).includes('t2'),
  ],
  [
    'color=red',
    { fieldSelector: [{ field: COLOR_INDEX, op: 'in', values: ['red'] }] },
    (o) => specOf(o).color === 'red',
  ],
];

/** Follows `continue` from the first page to the last and returns every name, checking each page's total. */
async function walkAll(storage: Storage, type: ResourceType, options: ListOptions, total: number): Promise<string[]> {
  const names: string[] = [];
  let token: string | undefined;
  do {
    const page = await storage.list(type, { ...options, limit: 3, continue: token });
    expect(page.total).toBe(total);
    names.push(...namesOf(page.items));
    token = page.continue;
    if (names.length > 500) throw new Error('continue tokens never ran out');
  } while (token !== undefined);
  return names;
}

/**
 * One equality in the default order (which a backend may answer from a
 * structure per value): pages, totals and continue walks stay exact while
 * objects are created, deleted and moved between values, checked against the
 * unfiltered list.
 */
export function describeEqualityPages(h: Harness): void {
  describe('one equality in the default order', () => {
    it('pages, totals and continue walks follow creates, deletes and values that change', async () => {
      const { storage, type } = await h.widgets();
      const rnd = seededRandom(10);
      const random = (name: string) =>
        widget(name, { color: rnd.pick(COLORS), tags: rnd.some(TAGS) }, { tier: rnd.pick(TIERS) });
      const live: string[] = [];
      let created = 0;
      const create = async () => {
        const name = `e${String(created++).padStart(3, '0')}`;
        await storage.create(type, random(name));
        live.push(name);
      };
      for (let i = 0; i < 30; i++) await create();
      for (let round = 0; round < 5; round++) {
        for (let op = 0; op < 12; op++) {
          const roll = rnd.int(4);
          if (roll === 0) {
            await create();
          } else if (roll === 1 && live.length > 0) {
            await storage.delete(type, live.splice(rnd.int(live.length), 1)[0]);
          } else if (live.length > 0) {
            const next = random('unused');
            await storage.update(type, rnd.pick(live), (o) => ({
              ...o,
              metadata: { ...o.metadata, labels: next.metadata.labels },
              spec: next.spec,
            }));
          }
        }
        const everything = (await storage.list(type)).items;
        for (const [title, options, matches] of QUERIES) {
          const expected = namesOf(everything.filter(matches));
          const page = await storage.list(type, { ...options, offset: 2, limit: 3 });
          expect({ title, round, names: namesOf(page.items), total: page.total }).toEqual({
            title,
            round,
            names: expected.slice(2, 5),
            total: expected.length,
          });
          expect({ title, round, all: await listNames(storage, type, options) }).toEqual({
            title,
            round,
            all: expected,
          });
          expect({ title, round, walked: await walkAll(storage, type, options, expected.length) }).toEqual({
            title,
            round,
            walked: expected,
          });
        }
      }
    });

    it('a continue walk of one equality visits every object that stays exactly once while others come and go', async () => {
      const { storage, type } = await h.widgets();
      const red = (name: string) => widget(name, { color: 'red' }, { tier: 'gold' });
      for (let i = 0; i < 12; i++) await storage.create(type, red(`s${String(i).padStart(2, '0')}`));
      const stays = namesOf((await storage.list(type)).items);
      for (const options of EQUALITIES) {
        const seen: string[] = [];
        let token: string | undefined;
        let added = 0;
        do {
          const page = await storage.list(type, { ...options, limit: 4, continue: token });
          seen.push(...namesOf(page.items));
          token = page.continue;
          const name = `n${added++}-${seen.length}`;
          await storage.create(type, red(name));
          await storage.delete(type, name);
          await storage.create(type, red(`${name}-kept`));
        } while (token !== undefined);
        expect({ options, visits: seen.filter((n) => stays.includes(n)) }).toEqual({ options, visits: stays });
        expect(new Set(seen).size).toBe(seen.length);
        for (const name of seen.filter((n) => !stays.includes(n))) await storage.delete(type, name);
        const rest = namesOf((await storage.list(type)).items).filter((n) => !stays.includes(n));
        for (const name of rest) await storage.delete(type, name);
      }
    });

    it('one equality sorted by an index, or with a repeated value, lists the same objects as the filter', async () => {
      const { storage, type } = await h.widgets();
      const rnd = seededRandom(11);
      for (let i = 0; i < 25; i++) {
        const name = `q${String(i).padStart(2, '0')}`;
        const spec = { color: rnd.pick(COLORS), rank: String(rnd.int(5)).padStart(2, '0') };
        await storage.create(type, widget(name, spec, { tier: rnd.pick(TIERS) }));
      }
      const everything = (await storage.list(type)).items;
      const gold = everything.filter((o) => o.metadata.labels?.tier === 'gold');
      const byRank = [...gold].sort(
        (a, b) => (specOf(a).rank ?? '').localeCompare(specOf(b).rank ?? '') || compareNames(a, b),
      );
      const byColor = [...gold].sort(
        (a, b) => (specOf(b).color ?? '').localeCompare(specOf(a).color ?? '') || compareNames(a, b),
      );
      const goldOnly: ListOptions = { labelSelector: [{ key: 'tier', op: 'in', values: ['gold'] }] };
      const cases: [ListOptions, ApiObject[]][] = [
        [{ ...goldOnly, sort: [{ index: RANK_INDEX, direction: 'asc' }] }, byRank],
        [{ ...goldOnly, sort: [{ index: COLOR_INDEX, direction: 'desc' }] }, byColor],
        [{ ...goldOnly, sort: [{ index: CREATION_INDEX, direction: 'desc' }] }, gold],
        [{ labelSelector: [{ key: 'tier', op: 'in', values: ['gold', 'gold'] }] }, gold],
      ];
      for (const [options, expected] of cases) {
        const page = await storage.list(type, { ...options, offset: 1, limit: 4 });
        expect({ options, names: namesOf(page.items), total: page.total }).toEqual({
          options,
          names: namesOf(expected).slice(1, 5),
          total: expected.length,
        });
        expect({ options, walked: await walkAll(storage, type, options, expected.length) }).toEqual({
          options,
          walked: namesOf(expected),
        });
      }
    });

    it('an index that starts or stops ordering its values answers the same pages', async () => {
      const { storage, type } = await h.widgets();
      const rnd = seededRandom(12);
      for (let i = 0; i < 20; i++) await storage.create(type, widget(`o${i}`, { color: rnd.pick(COLORS) }));
      const red: ListOptions = { fieldSelector: [{ field: COLOR_INDEX, op: 'in', values: ['red'] }], limit: 3 };
      const before = await storage.list(type, red);
      const plain = TEST_INDEXES.map((spec) => (spec.name === COLOR_INDEX ? { ...spec, valueSets: false } : spec));
      for (const indexes of [plain, TEST_INDEXES]) {
        await storage.defineType(type, indexes);
        await storage.whenIndexesReady(type);
        const page = await storage.list(type, red);
        expect({ names: namesOf(page.items), total: page.total }).toEqual({
          names: namesOf(before.items),
          total: before.total,
        });
      }
    });
  });
}

const EQUALITIES: ListOptions[] = [
  { labelSelector: [{ key: 'tier', op: 'in', values: ['gold'] }] },
  { fieldSelector: [{ field: COLOR_INDEX, op: 'in', values: ['red'] }] },
];

const compareNames = (a: ApiObject, b: ApiObject): number =>
  Buffer.compare(Buffer.from(a.metadata.name ?? ''), Buffer.from(b.metadata.name ?? ''));
