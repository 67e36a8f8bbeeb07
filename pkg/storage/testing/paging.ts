import type { Storage } from '../interface';
import type { ListOptions } from '../query';
import { COLOR_INDEX, createAll, listNames, RANK_INDEX, TAGS_INDEX, widget } from './fixtures';
import { expectStorageError } from './expect-error';
import type { Harness } from './harness';

const byName: ListOptions = { sort: [{ index: 'metadata.name', direction: 'asc' }] };
const odd: ListOptions = { fieldSelector: [{ field: COLOR_INDEX, op: 'in', values: ['odd'] }] };
const pad = (n: number) => String(n).padStart(2, '0');

/** An object whose color, rank and tags follow from `i`, some without a rank, some with several tags. */
const churnWidget = (name: string, i: number) =>
  widget(name, {
    color: i % 2 ? 'odd' : 'even',
    rank: i % 5 === 3 ? undefined : pad((i * 7) % 19),
    tags: [pad(i % 6), pad((i * 5) % 11)].slice(0, 1 + (i % 2)),
  });

/**
 * Follows `continue` from the first page to the last, checking on the way that
 * every page but the last carries a token, and returns the pages' names.
 */
async function walk(storage: Storage, type: string, options: ListOptions, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  let token: string | undefined;
  do {
    const page = await storage.list(type, { ...options, limit, continue: token });
    expect(page.items.length).toBeLessThanOrEqual(limit);
    pages.push(page.items.map((o) => o.metadata.name ?? ''));
    token = page.continue;
    if (pages.length > 50) throw new Error('continue tokens never ran out');
  } while (token !== undefined);
  return pages;
}

/** Paging: offset/limit with totals, limit/continue walks, malformed tokens, the revision read at. */
export function describePaging(h: Harness): void {
  describe('paging', () => {
    /** p01…p11: colors odd/even by number, ranks a permutation, p04 and p08 without rank. */
    async function eleven() {
      const { storage, type } = await h.widgets();
      const objects = Array.from({ length: 11 }, (_, k) => {
        const i = k + 1;
        return widget(`p${pad(i)}`, { color: i % 2 ? 'odd' : 'even', rank: i % 4 ? pad((i * 5) % 11) : undefined });
      });
      await createAll(storage, type, objects.reverse());
      return { storage, type };
    }

    it('offset and limit return one page, and total counts every match', async () => {
      const { storage, type } = await eleven();
      const page = await storage.list(type, { ...byName, offset: 2, limit: 3 });
      expect(page.items.map((o) => o.metadata.name)).toEqual(['p03', 'p04', 'p05']);
      expect(page.total).toBe(11);
      const tail = await storage.list(type, { ...byName, offset: 9, limit: 3 });
      expect(tail.items.map((o) => o.metadata.name)).toEqual(['p10', 'p11']);
      expect(tail.total).toBe(11);
      const filtered = await storage.list(type, { ...byName, ...odd, offset: 2, limit: 2 });
      expect(filtered.items.map((o) => o.metadata.name)).toEqual(['p05', 'p07']);
      expect(filtered.total).toBe(6);
    });

    it('a page past the end is empty and still carries the total', async () => {
      const { storage, type } = await eleven();
      for (const offset of [11, 50]) {
        const page = await storage.list(type, { ...byName, offset, limit: 3 });
        expect({ offset, names: page.items.map((o) => o.metadata.name), total: page.total }).toEqual({
          offset,
          names: [],
          total: 11,
        });
        expect(page.continue).toBeUndefined();
      }
    });

    it('limit and continue walk every item exactly once, in order, for any query', async () => {
      const { storage, type } = await eleven();
      const queries: [string, ListOptions][] = [
        ['default order', {}],
        ['by name', byName],
        ['rank desc, missing ranks last', { sort: [{ index: RANK_INDEX, direction: 'desc' }] }],
        ['odd, rank asc', { ...odd, sort: [{ index: RANK_INDEX, direction: 'asc' }] }],
      ];
      for (const [title, options] of queries) {
        const all = await listNames(storage, type, options);
        const pages = await walk(storage, type, options, 3);
        expect({ title, pages: pages.map((p) => p.length), names: pages.flat() }).toEqual({
          title,
          pages: expectedPageSizes(all.length, 3),
          names: all,
        });
        expect(new Set(all).size).toBe(all.length);
      }
    });

    it('writes between pages neither repeat nor skip the objects that stay, in any order', async () => {
      const queries: [string, ListOptions][] = [
        ['default order', {}],
        ['by name', byName],
        ['rank desc, missing ranks last', { sort: [{ index: RANK_INDEX, direction: 'desc' }] }],
        ['tags asc (multi-valued)', { sort: [{ index: TAGS_INDEX, direction: 'asc' }] }],
        ['odd, rank asc', { ...odd, sort: [{ index: RANK_INDEX, direction: 'asc' }] }],
        ['odd, default order', odd],
        ['tag 01 (multi-valued), default order', { fieldSelector: [{ field: TAGS_INDEX, op: 'in', values: ['01'] }] }],
      ];
      for (const [title, options] of queries) {
        const { storage, type } = await h.widgets();
        const initial = Array.from({ length: 24 }, (_, i) => churnWidget(`w${pad(i)}`, i));
        await createAll(storage, type, initial);
        const removed = new Set<string>();
        const visited: string[] = [];
        let token: string | undefined;
        let created = 0;
        do {
          const page = await storage.list(type, { ...options, limit: 4, continue: token });
          visited.push(...page.items.map((o) => o.metadata.name ?? ''));
          token = page.continue;
          // Delete the page's first item (already seen) and the next page's first one (not yet seen),
          // and add objects that sort before, among and after the rest.
          const ahead =
            token === undefined ? [] : (await storage.list(type, { ...options, limit: 1, continue: token })).items;
          for (const object of [page.items[0], ...ahead]) {
            const name = object?.metadata.name;
            if (name === undefined || removed.has(name)) continue;
            await storage.delete(type, name);
            removed.add(name);
          }
          for (const prefix of ['a', 'n', 'z'])
            await storage.create(type, churnWidget(`${prefix}${pad(created)}`, created++ * 7));
          if (visited.length > 200) throw new Error(`${title}: continue tokens never ran out`);
        } while (token !== undefined);
        const survivors = initial.map((o) => o.metadata.name ?? '').filter((n) => !removed.has(n));
        const expected = await listNames(storage, type, options);
        const seenTwice = visited.filter((name, i) => visited.indexOf(name) !== i);
        const missed = survivors.filter((name) => expected.includes(name) && !visited.includes(name));
        expect({ title, seenTwice, missed }).toEqual({ title, seenTwice: [], missed: [] });
        await h.close(storage);
      }
    });

    it('the last page has no continue token, also when the items divide evenly', async () => {
      const { storage, type } = await eleven();
      expect(await walk(storage, type, { ...byName, ...odd }, 3)).toEqual([
        ['p01', 'p03', 'p05'],
        ['p07', 'p09', 'p11'],
      ]);
      const whole = await storage.list(type, { ...byName, limit: 11 });
      expect(whole.items).toHaveLength(11);
      expect(whole.continue).toBeUndefined();
    });

    it('every page of a continue walk carries the total of all matches', async () => {
      const { storage, type } = await eleven();
      const first = await storage.list(type, { ...odd, limit: 4 });
      const second = await storage.list(type, { ...odd, limit: 4, continue: first.continue });
      expect([first.total, second.total]).toEqual([6, 6]);
      expect(second.items).toHaveLength(2);
    });

    it('each page of a continue walk counts the matches after it in remainingItemCount', async () => {
      const { storage, type } = await eleven();
      for (const options of [byName, { ...odd, sort: [{ index: RANK_INDEX, direction: 'desc' as const }] }]) {
        const counts: (number | undefined)[] = [];
        let token: string | undefined;
        do {
          const page = await storage.list(type, { ...options, limit: 2, continue: token });
          counts.push(page.remainingItemCount);
          token = page.continue;
        } while (token !== undefined && counts.length < 20);
        expect(counts).toEqual(options === byName ? [9, 7, 5, 3, 1, undefined] : [4, 2, undefined]);
      }
      const offset = await storage.list(type, { ...byName, offset: 4, limit: 3 });
      expect(offset.remainingItemCount).toBe(4);
    });

    it('a malformed continue token is Invalid', async () => {
      const { storage, type } = await eleven();
      for (const token of ['not a continue token', '%%%', 'eyJub3QiOiJ0aGlzIn0']) {
        await expectStorageError(storage.list(type, { ...byName, limit: 3, continue: token }), 'Invalid');
      }
    });

    it('reports the revision it read at', async () => {
      const { storage, type } = await eleven();
      expect((await storage.list(type)).revision).toBe(await storage.currentRevision(type));
      await storage.create(type, widget('p12'));
      const after = await storage.list(type, { ...byName, limit: 1 });
      expect(after.revision).toBe('12');
      expect(after.revision).toBe(await storage.currentRevision(type));
    });
  });
}

/** Page sizes of `total` items in pages of `limit`, e.g. (11, 3) → [3, 3, 3, 2]; one empty page when there are none. */
function expectedPageSizes(total: number, limit: number): number[] {
  if (total === 0) return [0];
  return Array.from({ length: Math.ceil(total / limit) }, (_, i) => Math.min(limit, total - i * limit));
}
