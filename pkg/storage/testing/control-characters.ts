import { type IndexSpec } from '../indexes';
import type { ListOptions } from '../query';
import { CODE_INDEX, COLOR_INDEX, GADGETS, listNames, RANK_INDEX, TAGS_INDEX, TEST_INDEXES, widget } from './fixtures';
import { expectStorageError } from './expect-error';
import type { Harness } from './harness';

const colorIs = (...values: string[]): ListOptions => ({
  fieldSelector: [{ field: COLOR_INDEX, op: 'in', values }],
});
const byColor = (direction: 'asc' | 'desc'): ListOptions => ({ sort: [{ index: COLOR_INDEX, direction }] });

/** The suite's indexes with rank paired with color (ADR 0023), so that a pair's sort values hold them too. */
const RANK_BY_COLOR: IndexSpec[] = TEST_INDEXES.map((spec) =>
  spec.name === RANK_INDEX ? { ...spec, filteredBy: [COLOR_INDEX] } : spec,
);

/**
 * Index values holding control characters, NUL (U+0000) and SOH (U+0001) above all: backends store
 * bytes such as these as separators, yet every value is stored, found, sorted and reported as given.
 */
export function describeControlCharacters(h: Harness): void {
  describe('index values holding control characters', () => {
    async function population() {
      const { storage, type } = await h.widgets();
      await storage.create(type, widget('plain', { color: 'a' }));
      await storage.create(type, widget('nul', { color: 'a\0b', tags: ['x\0', 'y'], code: 'c\0' }));
      await storage.create(type, widget('soh', { color: 'a\u0001' }));
      await storage.create(type, widget('stx', { color: 'a\u0002b' }));
      await storage.create(type, widget('b', { color: 'b' }));
      await storage.create(type, widget('none'));
      return { storage, type };
    }

    it('finds each value exactly, by field selector, in and notin', async () => {
      const { storage, type } = await population();
      const cases: [string, ListOptions, string[]][] = [
        ['color=a', colorIs('a'), ['plain']],
        ['color=a\\0b', colorIs('a\0b'), ['nul']],
        ['color=a\\0', colorIs('a\0'), []],
        ['color=a\\1', colorIs('a\u0001'), ['soh']],
        ['color=a\\2b', colorIs('a\u0002b'), ['stx']],
        ['color in (a\\0b,b)', colorIs('a\0b', 'b'), ['b', 'nul']],
        [
          'color!=a\\0b',
          { fieldSelector: [{ field: COLOR_INDEX, op: 'notin', values: ['a\0b'] }] },
          ['b', 'none', 'plain', 'soh', 'stx'],
        ],
        ['tags=x\\0', { fieldSelector: [{ field: TAGS_INDEX, op: 'in', values: ['x\0'] }] }, ['nul']],
        ['tags=x', { fieldSelector: [{ field: TAGS_INDEX, op: 'in', values: ['x'] }] }, []],
        ['code=c\\0', { fieldSelector: [{ field: CODE_INDEX, op: 'in', values: ['c\0'] }] }, ['nul']],
      ];
      for (const [title, options, expected] of cases) {
        const names = await listNames(storage, type, {
          ...options,
          sort: [{ index: 'metadata.name', direction: 'asc' }],
        });
        expect({ title, names }).toEqual({ title, names: expected });
      }
    });

    it('sorts them in byte order, in pages as in one list', async () => {
      const { storage, type } = await population();
      const ascending = ['plain', 'nul', 'soh', 'stx', 'b', 'none'];
      expect(await listNames(storage, type, byColor('asc'))).toEqual(ascending);
      expect(await listNames(storage, type, byColor('desc'))).toEqual(['b', 'stx', 'soh', 'nul', 'plain', 'none']);
      const paged: string[] = [];
      let token: string | undefined;
      do {
        const page = await storage.list(type, { ...byColor('asc'), limit: 1, continue: token });
        paged.push(...page.items.map((o) => o.metadata.name ?? ''));
        token = page.continue;
      } while (token);
      expect(paged).toEqual(ascending);
    });

    it('reports a taken unique value as it is', async () => {
      const { storage, type } = await population();
      const err = await expectStorageError(storage.create(type, widget('again', { code: 'c\0' })), 'Conflict');
      expect(err.details).toMatchObject({ index: CODE_INDEX, value: 'c\0' });
    });

    it("gives a watch a changed object's previous values as they were", async () => {
      const { storage, type } = await population();
      const reader = h.watch(storage, type, await storage.currentRevision(type));
      await storage.update(type, 'nul', (current) => ({ ...current, spec: { color: 'z' } }));
      const [event] = await reader.take(1);
      expect(event.type).toBe('MODIFIED');
      expect(event.previousIndexValues?.[COLOR_INDEX]).toEqual(['a\0b']);
      expect(event.previousIndexValues?.[TAGS_INDEX]).toEqual(['x\0', 'y']);
    });

    it('sorts one filter value by a paired index whose values hold them', async () => {
      const storage = await h.open();
      await storage.defineType(GADGETS, RANK_BY_COLOR);
      const ranks: [string, string][] = [
        ['r1', '1'],
        ['r0-nul', '0\0'],
        ['r0', '0'],
        ['r0-soh', '0\u0001'],
      ];
      for (const [name, rank] of ranks) await storage.create(GADGETS, widget(name, { color: 'red', rank }));
      const sorted = { ...colorIs('red'), sort: [{ index: RANK_INDEX, direction: 'asc' as const }] };
      expect(await listNames(storage, GADGETS, sorted)).toEqual(['r0', 'r0-nul', 'r0-soh', 'r1']);
      const rankIs = { fieldSelector: [{ field: RANK_INDEX, op: 'in' as const, values: ['0\0'] }] };
      expect(await listNames(storage, GADGETS, rankIs)).toEqual(['r0-nul']);
    });
  });
}
