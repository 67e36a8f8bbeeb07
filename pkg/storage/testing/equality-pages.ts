import type { ApiObject } from '../../api/object';
import type { ResourceType, Storage } from '../interface';
import type { ListOptions } from '../query';
import { COLOR_INDEX, listNames, namesOf, specOf, TAGS_INDEX, widget } from './fixtures';
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
  });
}
