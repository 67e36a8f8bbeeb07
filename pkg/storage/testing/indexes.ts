import type { FieldRequirement } from '../query';
import { CODE_INDEX, listNames, setSpec, TAGS_INDEX, widget } from './fixtures';
import { expectStorageError } from './expect-error';
import type { Harness } from './harness';

const byName = { sort: [{ index: 'metadata.name', direction: 'asc' as const }] };
const tagsIn = (...values: string[]): FieldRequirement => ({ field: TAGS_INDEX, op: 'in', values });
const tagsNotIn = (...values: string[]): FieldRequirement => ({ field: TAGS_INDEX, op: 'notin', values });

/** Unique indexes (Conflict naming index and value, values freed) and multi-valued indexes. */
export function describeIndexes(h: Harness): void {
  describe('unique indexes', () => {
    it('a create taking a held value is a Conflict naming the index and value, and stores nothing', async () => {
      const { storage, type } = await h.widgets();
      const holder = await storage.create(type, widget('ada', { code: 'c1' }));
      const err = await expectStorageError(storage.create(type, widget('grace', { code: 'c1' })), 'Conflict');
      expect(err.details).toMatchObject({ index: CODE_INDEX, value: 'c1' });
      await expectStorageError(storage.get(type, 'grace'), 'NotFound');
      expect(await storage.currentRevision(type)).toBe(holder.metadata.resourceVersion);
    });

    it('an update taking a held value is a Conflict and changes nothing', async () => {
      const { storage, type } = await h.widgets();
      await storage.create(type, widget('ada', { code: 'c1' }));
      const grace = await storage.create(type, widget('grace', { code: 'c2' }));
      const err = await expectStorageError(storage.update(type, 'grace', setSpec({ code: 'c1' })), 'Conflict');
      expect(err.details).toMatchObject({ index: CODE_INDEX, value: 'c1' });
      expect(await storage.get(type, 'grace')).toEqual(grace);
      expect(
        await listNames(storage, type, { fieldSelector: [{ field: CODE_INDEX, op: 'in', values: ['c1'] }] }),
      ).toEqual(['ada']);
    });

    it('an object keeps its own value across updates, and objects without a value never clash', async () => {
      const { storage, type } = await h.widgets();
      await storage.create(type, widget('ada', { code: 'c1' }));
      const updated = await storage.update(type, 'ada', setSpec({ note: 'still c1' }));
      expect(updated.metadata.version).toBe(2);
      await storage.create(type, widget('grace'));
      await storage.create(type, widget('linus'));
      expect((await storage.list(type)).total).toBe(3);
    });

    it('a value is free again once its holder changes it, and the new value is held', async () => {
      const { storage, type } = await h.widgets();
      await storage.create(type, widget('ada', { code: 'c1' }));
      await storage.update(type, 'ada', setSpec({ code: 'c2' }));
      await storage.create(type, widget('grace', { code: 'c1' }));
      const err = await expectStorageError(storage.create(type, widget('linus', { code: 'c2' })), 'Conflict');
      expect(err.details).toMatchObject({ index: CODE_INDEX, value: 'c2' });
    });

    it('a value is free again once its holder is deleted', async () => {
      const { storage, type } = await h.widgets();
      await storage.create(type, widget('ada', { code: 'c1' }));
      await storage.delete(type, 'ada');
      const grace = await storage.create(type, widget('grace', { code: 'c1' }));
      expect(
        await listNames(storage, type, { fieldSelector: [{ field: CODE_INDEX, op: 'in', values: ['c1'] }] }),
      ).toEqual([grace.metadata.name]);
    });
  });

  describe('multi-valued indexes', () => {
    async function tagged() {
      const { storage, type } = await h.widgets();
      await storage.create(type, widget('ada', { tags: ['a', 'b', 'c'] }));
      await storage.create(type, widget('grace', { tags: ['c', 'd'] }));
      await storage.create(type, widget('linus', { tags: ['x', 'x', 'a'] }));
      await storage.create(type, widget('none'));
      return { storage, type };
    }

    it('a field selector finds every object that has the value among several', async () => {
      const { storage, type } = await tagged();
      expect(await listNames(storage, type, { ...byName, fieldSelector: [tagsIn('a')] })).toEqual(['ada', 'linus']);
      expect(await listNames(storage, type, { ...byName, fieldSelector: [tagsIn('c')] })).toEqual(['ada', 'grace']);
      expect(await listNames(storage, type, { ...byName, fieldSelector: [tagsIn('d')] })).toEqual(['grace']);
      expect(await listNames(storage, type, { ...byName, fieldSelector: [tagsIn('zz')] })).toEqual([]);
    });

    it('counts an object once however many of its values match', async () => {
      const { storage, type } = await tagged();
      const result = await storage.list(type, { ...byName, fieldSelector: [tagsIn('a', 'b', 'c', 'x')] });
      expect(result.items.map((o) => o.metadata.name)).toEqual(['ada', 'grace', 'linus']);
      expect(result.total).toBe(3);
    });

    it('notin matches objects none of whose values is listed, including objects with none', async () => {
      const { storage, type } = await tagged();
      expect(await listNames(storage, type, { ...byName, fieldSelector: [tagsNotIn('a')] })).toEqual(['grace', 'none']);
      expect(await listNames(storage, type, { ...byName, fieldSelector: [tagsNotIn('c', 'x')] })).toEqual(['none']);
    });

    it('follows updates and deletes', async () => {
      const { storage, type } = await tagged();
      await storage.update(type, 'ada', setSpec({ tags: ['b'] }));
      await storage.update(type, 'none', setSpec({ tags: ['a'] }));
      await storage.delete(type, 'linus');
      expect(await listNames(storage, type, { ...byName, fieldSelector: [tagsIn('a')] })).toEqual(['none']);
      expect(await listNames(storage, type, { ...byName, fieldSelector: [tagsIn('b')] })).toEqual(['ada']);
      expect(await listNames(storage, type, { ...byName, fieldSelector: [tagsIn('x')] })).toEqual([]);
    });
  });
}
