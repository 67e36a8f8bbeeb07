import { CODE_INDEX, revisionOf, setSpec, specOf, widget } from './fixtures';
import { expectStorageError } from './expect-error';
import type { Harness } from './harness';
import { expectNoEventsBefore } from './watch-reader';

const DRY = { dryRun: true };

/** dryRun: every check runs and the result is returned, but nothing is written, bumped or announced. */
export function describeDryRun(h: Harness): void {
  describe('dryRun', () => {
    it('create returns the object as it would be stored and writes nothing', async () => {
      const { storage, type } = await h.widgets();
      const reader = h.watch(storage, type);
      const result = await storage.create(type, widget('ada', { code: 'c1', note: 'a' }), DRY);
      expect(result.metadata).toMatchObject({ name: 'ada', generation: 1, version: 1 });
      expect(result.metadata.uid).toBeTruthy();
      expect(result.metadata.creationTimestamp).toBeTruthy();
      expect(specOf(result)).toEqual({ code: 'c1', note: 'a' });
      await expectStorageError(storage.get(type, 'ada'), 'NotFound');
      expect(await storage.currentRevision(type)).toBe('0');
      expect((await storage.list(type)).total).toBe(0);
      // Neither the name nor the unique value was taken.
      await storage.create(type, widget('grace', { code: 'c1' }));
      await storage.create(type, widget('ada'));
      const events = await reader.take(2);
      expect(events.map((e) => e.object.metadata.name)).toEqual(['grace', 'ada']);
    });

    it('create still fails on a taken name or unique value', async () => {
      const { storage, type } = await h.widgets();
      await storage.create(type, widget('ada', { code: 'c1' }));
      await expectStorageError(storage.create(type, widget('ada'), DRY), 'AlreadyExists');
      const conflict = await expectStorageError(storage.create(type, widget('grace', { code: 'c1' }), DRY), 'Conflict');
      expect(conflict.details).toMatchObject({ index: CODE_INDEX, value: 'c1' });
    });

    it('update returns the result it would store and writes nothing', async () => {
      const { storage, type } = await h.widgets();
      const created = await storage.create(type, widget('ada', { note: 'a' }));
      const reader = h.watch(storage, type);
      const result = await storage.update(type, 'ada', setSpec({ note: 'b' }), undefined, DRY);
      expect(specOf(result).note).toBe('b');
      expect(result.metadata).toMatchObject({ uid: created.metadata.uid, version: 2, generation: 2 });
      expect(await storage.get(type, 'ada')).toEqual(created);
      expect(await storage.currentRevision(type)).toBe(created.metadata.resourceVersion);
      await expectNoEventsBefore(reader, () => storage.create(type, widget('marker')));
    });

    it('update still checks preconditions and unique values', async () => {
      const { storage, type } = await h.widgets();
      await storage.create(type, widget('ada', { note: 'a' }));
      await storage.update(type, 'ada', setSpec({ note: 'b' }));
      await storage.create(type, widget('grace', { code: 'c1' }));
      await expectStorageError(storage.update(type, 'ada', setSpec({ note: 'c' }), { version: 1 }, DRY), 'Conflict');
      await expectStorageError(storage.update(type, 'ada', setSpec({ code: 'c1' }), undefined, DRY), 'Conflict');
      await expectStorageError(storage.update(type, 'nobody', setSpec({ note: 'c' }), undefined, DRY), 'NotFound');
    });

    it('delete returns the object and removes nothing', async () => {
      const { storage, type } = await h.widgets();
      const created = await storage.create(type, widget('ada', { code: 'c1' }));
      const reader = h.watch(storage, type);
      const result = await storage.delete(type, 'ada', undefined, DRY);
      expect(result).toMatchObject({ metadata: { name: 'ada', uid: created.metadata.uid }, spec: { code: 'c1' } });
      expect(await storage.get(type, 'ada')).toEqual(created);
      expect(await storage.currentRevision(type)).toBe(created.metadata.resourceVersion);
      await expectStorageError(storage.create(type, widget('grace', { code: 'c1' })), 'Conflict');
      await expectStorageError(storage.delete(type, 'ada', { version: 7 }, DRY), 'Conflict');
      await expectNoEventsBefore(reader, () => storage.create(type, widget('marker')));
      expect(revisionOf(await storage.get(type, 'ada'))).toBe(revisionOf(created));
    });
  });
}
