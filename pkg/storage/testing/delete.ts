import { CODE_INDEX, COLOR_INDEX, listNames, revisionOf, setSpec, TAGS_INDEX, widget } from './fixtures';
import { expectStorageError } from './expect-error';
import type { Harness } from './harness';

/** Delete: the returned last state, removal from reads, lists and indexes. */
export function describeDelete(h: Harness): void {
  describe('delete', () => {
    it('returns the last state with the revision of the removal', async () => {
      const { storage, type } = await h.widgets();
      await storage.create(type, widget('ada', { note: 'a' }));
      const updated = await storage.update(type, 'ada', setSpec({ note: 'last' }));
      const deleted = await storage.delete(type, 'ada');
      expect(deleted).toMatchObject({
        spec: { note: 'last' },
        metadata: { name: 'ada', uid: updated.metadata.uid, creationTimestamp: updated.metadata.creationTimestamp },
      });
      expect(revisionOf(deleted)).toBeGreaterThan(revisionOf(updated));
      expect(deleted.metadata.resourceVersion).toBe(await storage.currentRevision(type));
    });

    it('removes the object from get, list and every index', async () => {
      const { storage, type } = await h.widgets();
      await storage.create(type, widget('ada', { code: 'c1', tags: ['t'], color: 'red' }, { env: 'prod' }));
      await storage.create(type, widget('grace', { color: 'red' }));
      await storage.delete(type, 'ada');
      await expectStorageError(storage.get(type, 'ada'), 'NotFound');
      const all = await storage.list(type);
      expect(all.items.map((o) => o.metadata.name)).toEqual(['grace']);
      expect(all.total).toBe(1);
      const queries = [
        { fieldSelector: [{ field: 'metadata.name', op: 'in' as const, values: ['ada'] }] },
        { fieldSelector: [{ field: CODE_INDEX, op: 'in' as const, values: ['c1'] }] },
        { fieldSelector: [{ field: TAGS_INDEX, op: 'in' as const, values: ['t'] }] },
        { labelSelector: [{ key: 'env', op: 'exists' as const, values: [] }] },
      ];
      for (const query of queries)
        expect({ query, names: await listNames(storage, type, query) }).toEqual({ query, names: [] });
      expect(
        await listNames(storage, type, { fieldSelector: [{ field: COLOR_INDEX, op: 'in', values: ['red'] }] }),
      ).toEqual(['grace']);
    });

    it('frees the name and unique index values', async () => {
      const { storage, type } = await h.widgets();
      const first = await storage.create(type, widget('ada', { code: 'c1' }));
      await storage.delete(type, 'ada');
      const holder = await storage.create(type, widget('grace', { code: 'c1' }));
      expect(holder.metadata.version).toBe(1);
      const again = await storage.create(type, widget('ada'));
      expect(again.metadata.uid).not.toBe(first.metadata.uid);
      expect(again.metadata).toMatchObject({ version: 1, generation: 1 });
    });

    it('fails with NotFound when the object is missing, also the second time', async () => {
      const { storage, type } = await h.widgets();
      await expectStorageError(storage.delete(type, 'ada'), 'NotFound');
      await storage.create(type, widget('ada'));
      await storage.delete(type, 'ada');
      await expectStorageError(storage.delete(type, 'ada'), 'NotFound');
    });
  });
}
