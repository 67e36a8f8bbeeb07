import type { Preconditions } from '../interface';
import { setSpec, specOf, widget } from './fixtures';
import { expectStorageError } from './expect-error';
import type { Harness } from './harness';

/** Preconditions on update and delete: stale or wrong ones are a Conflict that changes nothing. */
export function describePreconditions(h: Harness): void {
  describe('preconditions', () => {
    /** A storage holding `ada` at version 2, and the preconditions of version 1 (stale) and 2 (current). */
    async function twiceWritten() {
      const { storage, type } = await h.widgets();
      const v1 = await storage.create(type, widget('ada', { note: 'v1' }));
      const v2 = await storage.update(type, 'ada', setSpec({ note: 'v2' }));
      const stale: Record<string, Preconditions> = {
        'stale version': { version: 1 },
        'stale resourceVersion': { resourceVersion: v1.metadata.resourceVersion },
        'wrong uid': { uid: '00000000-0000-4000-8000-000000000000' },
        'current version, stale resourceVersion': { version: 2, resourceVersion: v1.metadata.resourceVersion },
      };
      return { storage, type, v2, stale };
    }

    it('an update with a stale or wrong precondition is a Conflict and changes nothing', async () => {
      const { storage, type, v2, stale } = await twiceWritten();
      for (const [label, preconditions] of Object.entries(stale)) {
        const err = await expectStorageError(
          storage.update(type, 'ada', setSpec({ note: label }), preconditions),
          'Conflict',
        );
        expect(err.message).toContain('ada');
      }
      expect(await storage.get(type, 'ada')).toEqual(v2);
      expect(await storage.currentRevision(type)).toBe(v2.metadata.resourceVersion);
    });

    it('an update with current preconditions succeeds, each alone or all together', async () => {
      const { storage, type, v2 } = await twiceWritten();
      const byVersion = await storage.update(type, 'ada', setSpec({ note: 'v3' }), { version: 2 });
      const byRevision = await storage.update(type, 'ada', setSpec({ note: 'v4' }), {
        resourceVersion: byVersion.metadata.resourceVersion,
      });
      const byUid = await storage.update(type, 'ada', setSpec({ note: 'v5' }), { uid: v2.metadata.uid });
      const byAll = await storage.update(type, 'ada', setSpec({ note: 'v6' }), {
        version: byUid.metadata.version,
        resourceVersion: byUid.metadata.resourceVersion,
        uid: byUid.metadata.uid,
      });
      expect([byVersion, byRevision, byUid, byAll].map((o) => [specOf(o).note, o.metadata.version])).toEqual([
        ['v3', 3],
        ['v4', 4],
        ['v5', 5],
        ['v6', 6],
      ]);
    });

    it('the uid precondition tells a re-created object from the one it replaced', async () => {
      const { storage, type } = await h.widgets();
      const old = await storage.create(type, widget('ada', { note: 'old' }));
      await storage.delete(type, 'ada');
      const recreated = await storage.create(type, widget('ada', { note: 'new' }));
      await expectStorageError(
        storage.update(type, 'ada', setSpec({ note: 'x' }), { uid: old.metadata.uid }),
        'Conflict',
      );
      await expectStorageError(storage.delete(type, 'ada', { uid: old.metadata.uid }), 'Conflict');
      expect(await storage.get(type, 'ada')).toEqual(recreated);
    });

    it('a delete with a stale or wrong precondition is a Conflict and removes nothing', async () => {
      const { storage, type, v2, stale } = await twiceWritten();
      for (const preconditions of Object.values(stale)) {
        await expectStorageError(storage.delete(type, 'ada', preconditions), 'Conflict');
      }
      expect(await storage.get(type, 'ada')).toEqual(v2);
      expect(await storage.currentRevision(type)).toBe(v2.metadata.resourceVersion);
    });

    it('a delete with current preconditions removes the object', async () => {
      const { storage, type, v2 } = await twiceWritten();
      const { version, resourceVersion, uid } = v2.metadata;
      const deleted = await storage.delete(type, 'ada', { version, resourceVersion, uid });
      expect(specOf(deleted).note).toBe('v2');
      await expectStorageError(storage.get(type, 'ada'), 'NotFound');
    });

    it('an update or delete of a missing object is NotFound, with or without preconditions', async () => {
      const { storage, type } = await h.widgets();
      await storage.create(type, widget('grace'));
      await expectStorageError(storage.update(type, 'ada', setSpec({ note: 'x' })), 'NotFound');
      await expectStorageError(storage.update(type, 'ada', setSpec({ note: 'x' }), { version: 1 }), 'NotFound');
      await expectStorageError(storage.delete(type, 'ada', { version: 1 }), 'NotFound');
      await expectStorageError(storage.get(type, 'ada'), 'NotFound');
    });
  });
}
