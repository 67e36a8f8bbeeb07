import type { ApiObject } from '../../api/object';
import { LABELS_INDEX, type IndexSpec } from '../indexes';
import type { ResourceType, Storage } from '../interface';
import type { ListOptions, SortKey } from '../query';
import { COLOR_INDEX, GADGETS, namesOf, RANK_INDEX, TAGS_INDEX, TEST_INDEXES, widget, WIDGETS } from './fixtures';
import { expectStorageError } from './expect-error';
import type { Harness } from './harness';
import { seededRandom } from './seeded-random';

const TIERS = ['gold', 'silver'];
const TAGS = ['t1', 't2', 't3'];
const COLORS = ['red', 'blue'];

/** The suite's indexes with pairs declared: rank by labels and by color, tags (multi-valued) by labels and color. */
const PAIRED: Record<string, string[]> = {
  [RANK_INDEX]: [LABELS_INDEX, COLOR_INDEX],
  [TAGS_INDEX]: [LABELS_INDEX, COLOR_INDEX],
  [COLOR_INDEX]: [TAGS_INDEX],
};
const PAIRED_INDEXES: IndexSpec[] = TEST_INDEXES.map((spec) =>
  PAIRED[spec.name] ? { ...spec, filteredBy: PAIRED[spec.name] } : spec,
);

const gold = { labelSelector: [{ key: 'tier', op: 'in' as const, values: ['gold'] }] };
const red = { fieldSelector: [{ field: COLOR_INDEX, op: 'in' as const, values: ['red'] }] };
const tagged = { fieldSelector: [{ field: TAGS_INDEX, op: 'in' as const, values: ['t2'] }] };
const by = (index: string, direction: 'asc' | 'desc', then?: SortKey): { sort: SortKey[] } => ({
  sort: then ? [{ index, direction }, then] : [{ index, direction }],
});

/** Queries a pair answers: one equality, sorted first by an index paired with it. */
const PAIR_QUERIES: ListOptions[] = [
  { ...gold, ...by(RANK_INDEX, 'asc') },
  { ...gold, ...by(RANK_INDEX, 'desc') },
  { ...red, ...by(RANK_INDEX, 'asc') },
  { ...gold, ...by(TAGS_INDEX, 'asc') },
  { ...gold, ...by(TAGS_INDEX, 'desc') },
  { ...red, ...by(TAGS_INDEX, 'desc', { index: RANK_INDEX, direction: 'asc' }) },
  { ...tagged, ...by(COLOR_INDEX, 'desc') },
  { ...tagged, ...by(COLOR_INDEX, 'asc', { index: RANK_INDEX, direction: 'desc' }) },
];

/** A random widget: any field may be missing, so that objects without a sort or filter value are met. */
function randomWidget(rnd: ReturnType<typeof seededRandom>, name: string): ApiObject {
  const spec: Record<string, unknown> = {};
  if (rnd.int(4) > 0) spec.rank = String(rnd.int(6)).padStart(2, '0');
  if (rnd.int(3) > 0) spec.color = rnd.pick(COLORS);
  if (rnd.int(4) > 0) spec.tags = rnd.some(TAGS);
  return widget(name, spec, rnd.int(5) > 0 ? { tier: rnd.pick(TIERS) } : undefined);
}

/** Every name of a list, followed through continue tokens in pages of `limit`, and the totals each page said. */
async function walk(storage: Storage, type: ResourceType, options: ListOptions, limit: number) {
  const names: string[] = [];
  const totals = new Set<number>();
  let token: string | undefined;
  do {
    const page = await storage.list(type, { ...options, limit, continue: token });
    names.push(...namesOf(page.items));
    totals.add(page.total);
    token = page.continue;
    if (names.length > 500) throw new Error('continue tokens never ran out');
  } while (token !== undefined);
  return { names, totals: [...totals] };
}

/** What a query answers on one type: a page by offset, its total, and continue walks. */
async function answers(storage: Storage, type: ResourceType, options: ListOptions) {
  const page = await storage.list(type, { ...options, offset: 2, limit: 3 });
  return {
    page: namesOf(page.items),
    total: page.total,
    walk: await walk(storage, type, options, 3),
    all: namesOf((await storage.list(type, options)).items),
  };
}

/**
 * Pair indexes (`filteredBy`, ADR 0023): a page of one equality sorted by an
 * index paired with it may be read from a structure per (filter value, sort
 * value). Whatever a backend does, the answers are those of the same objects
 * stored without pairs (the other plans, which the sorting and selector cases
 * check), while objects are created, deleted and change values.
 */
export function describePairPages(h: Harness): void {
  describe('one equality sorted by a paired index (filteredBy)', () => {
    it('answers as without pairs while objects are created, deleted and change values', async () => {
      const storage = await h.open();
      await storage.defineType(WIDGETS, PAIRED_INDEXES);
      await storage.defineType(GADGETS, TEST_INDEXES);
      const rnd = seededRandom(23);
      const live: string[] = [];
      let created = 0;
      const both = async (write: (type: ResourceType) => Promise<unknown>) => {
        await write(WIDGETS);
        await write(GADGETS);
      };
      const create = async () => {
        const name = `p${String(created++).padStart(3, '0')}`;
        const object = randomWidget(rnd, name);
        await both((type) => storage.create(type, object));
        live.push(name);
      };
      for (let i = 0; i < 40; i++) await create();
      for (let round = 0; round < 4; round++) {
        for (let op = 0; op < 10; op++) {
          const roll = rnd.int(4);
          if (roll === 0 || live.length === 0) {
            await create();
          } else if (roll === 1) {
            const name = live.splice(rnd.int(live.length), 1)[0];
            await both((type) => storage.delete(type, name));
          } else {
            const name = rnd.pick(live);
            const next = randomWidget(rnd, name);
            const change = (o: ApiObject) => ({
              ...o,
              metadata: { ...o.metadata, labels: next.metadata.labels },
              spec: next.spec,
            });
            await both((type) => storage.update(type, name, change));
          }
        }
        // Reads only, nothing written meanwhile: all asked at once, so that a backend behind a socket pipelines them.
        const [expected, got] = await Promise.all(
          [GADGETS, WIDGETS].map((type) => Promise.all(PAIR_QUERIES.map((options) => answers(storage, type, options)))),
        );
        for (const [i, options] of PAIR_QUERIES.entries()) {
          expect(expected[i].all.length).toBeGreaterThan(0);
          expect({ round, options, ...got[i] }).toEqual({ round, options, ...expected[i] });
        }
      }
    });

    it('a continue walk visits every object that stays exactly once while others come and go', async () => {
      const storage = await h.open();
      await storage.defineType(WIDGETS, PAIRED_INDEXES);
      const rank = (i: number) => String(i % 7).padStart(2, '0');
      for (let i = 0; i < 14; i++) {
        await storage.create(WIDGETS, widget(`s${String(i).padStart(2, '0')}`, { rank: rank(i) }, { tier: 'gold' }));
      }
      const options: ListOptions = { ...gold, ...by(RANK_INDEX, 'asc') };
      const stays = namesOf((await storage.list(WIDGETS, options)).items);
      const seen: string[] = [];
      let token: string | undefined;
      let added = 0;
      do {
        const page = await storage.list(WIDGETS, { ...options, limit: 4, continue: token });
        seen.push(...namesOf(page.items));
        token = page.continue;
        const name = `n${added++}`;
        await storage.create(WIDGETS, widget(name, { rank: rank(added) }, { tier: 'gold' }));
        await storage.delete(WIDGETS, name);
        await storage.create(WIDGETS, widget(`${name}-kept`, { rank: rank(added * 3) }, { tier: 'gold' }));
      } while (token !== undefined);
      expect(seen.filter((n) => stays.includes(n))).toEqual(stays);
      expect(new Set(seen).size).toBe(seen.length);
    });

    it('pairs declared on a type that holds objects are built, and dropping them changes no answer', async () => {
      const { storage, type } = await h.widgets({ indexBuildBatch: 7 });
      const rnd = seededRandom(24);
      for (let i = 0; i < 30; i++) await storage.create(type, randomWidget(rnd, `b${String(i).padStart(2, '0')}`));
      const before = await Promise.all(PAIR_QUERIES.map((options) => answers(storage, type, options)));
      for (const indexes of [PAIRED_INDEXES, TEST_INDEXES]) {
        await storage.defineType(type, indexes);
        await storage.whenIndexesReady(type);
        expect(await Promise.all(PAIR_QUERIES.map((options) => answers(storage, type, options)))).toEqual(before);
      }
    });

    it('filteredBy must name another non-unique index, and a pair index is no index a query may name', async () => {
      const storage = await h.open();
      const bad = (filteredBy: string[]): IndexSpec[] =>
        TEST_INDEXES.map((spec) => (spec.name === RANK_INDEX ? { ...spec, filteredBy } : spec));
      await expect(storage.defineType(WIDGETS, bad(['spec.nothing']))).rejects.toThrow(/filteredBy/);
      await expect(storage.defineType(WIDGETS, bad(['spec.code']))).rejects.toThrow(/filteredBy/);
      await expect(storage.defineType(WIDGETS, bad([RANK_INDEX]))).rejects.toThrow(/filteredBy/);
      await storage.defineType(WIDGETS, PAIRED_INDEXES);
      const list = storage.list(WIDGETS, {
        sort: [{ index: `pair ${LABELS_INDEX} by ${RANK_INDEX}`, direction: 'asc' }],
      });
      await expectStorageError(list, 'Invalid');
    });
  });
}
