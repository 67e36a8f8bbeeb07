import type { ApiObject } from '../../api/object';
import { revisionOf, setSpec, specOf, widget } from './fixtures';
import { expectStorageError } from './expect-error';
import type { Harness } from './harness';
import { expectNoEventsBefore } from './watch-reader';

const DELETION_TIME = '2030-01-01T00:00:00.000Z';

/** Update: version and revision bumps, generation, no-op updates, server-owned fields, the mutation contract. */
export function describeUpdate(h: Harness): void {
  describe('update', () => {
    it('bumps version by one and resourceVersion to the new revision', async () => {
      const { storage, type } = await h.widgets();
      const created = await storage.create(type, widget('ada', { note: 'a' }));
      const first = await storage.update(type, 'ada', setSpec({ note: 'b' }));
      expect(first.metadata.version).toBe(2);
      expect(revisionOf(first)).toBeGreaterThan(revisionOf(created));
      expect(first.metadata.resourceVersion).toBe(await storage.currentRevision(type));
      const second = await storage.update(type, 'ada', setSpec({ note: 'c' }));
      expect(second.metadata.version).toBe(3);
      expect(revisionOf(second)).toBeGreaterThan(revisionOf(first));
      expect(await storage.get(type, 'ada')).toEqual(second);
      expect(specOf(second).note).toBe('c');
    });

    it('keeps uid, creationTimestamp and name, and counts version itself, whatever the mutation sets', async () => {
      const { storage, type } = await h.widgets();
      const created = await storage.create(type, widget('ada', { note: 'a' }));
      const updated = await storage.update(type, 'ada', (o) => ({
        ...o,
        metadata: {
          ...o.metadata,
          name: 'other',
          uid: 'client-uid',
          creationTimestamp: '2000-01-01T00:00:00.000Z',
          generation: 99,
          version: 99,
          resourceVersion: '999',
        },
        spec: { note: 'b' },
      }));
      expect(updated.metadata).toMatchObject({
        name: 'ada',
        uid: created.metadata.uid,
        creationTimestamp: created.metadata.creationTimestamp,
        generation: 2,
        version: 2,
      });
      expect(updated.metadata.resourceVersion).toBe(await storage.currentRevision(type));
      await expectStorageError(storage.get(type, 'other'), 'NotFound');
    });

    it('increases generation only when something outside metadata and status changes', async () => {
      const { storage, type } = await h.widgets();
      await storage.create(type, widget('ada', { note: 'a' }));
      const steps: [string, (o: ApiObject) => ApiObject, number][] = [
        ['label', (o) => ({ ...o, metadata: { ...o.metadata, labels: { env: 'prod' } } }), 1],
        ['annotation', (o) => ({ ...o, metadata: { ...o.metadata, annotations: { note: 'x' } } }), 1],
        ['status', (o) => ({ ...o, status: { phase: 'Ready' } }), 1],
        ['spec', setSpec({ note: 'b' }), 2],
        ['another top-level field', (o) => ({ ...o, data: { size: 1 } }), 3],
        ['status again', (o) => ({ ...o, status: { phase: 'Done' } }), 3],
      ];
      let version = 1;
      for (const [change, mutate, generation] of steps) {
        const updated = await storage.update(type, 'ada', mutate);
        version += 1;
        expect({ change, generation: updated.metadata.generation, version: updated.metadata.version }).toEqual({
          change,
          generation,
          version,
        });
      }
    });

    it('writes nothing when the result equals the current object: same revision, no event', async () => {
      const { storage, type } = await h.widgets();
      const created = await storage.create(type, widget('ada', { tags: ['a', 'b'] }, { env: 'prod' }));
      const reader = h.watch(storage, type);
      const unchanged: ((o: ApiObject) => ApiObject)[] = [
        (o) => o,
        (o) => ({ ...o, spec: { tags: ['a', 'b'] }, metadata: { ...o.metadata, labels: { env: 'prod' } } }),
        (o) => ({ ...o, metadata: { ...o.metadata, version: 42, generation: 42, resourceVersion: '4242' } }),
      ];
      for (const mutate of unchanged) {
        expect(await storage.update(type, 'ada', mutate)).toEqual(created);
      }
      expect(await storage.currentRevision(type)).toBe(created.metadata.resourceVersion);
      expect(await storage.get(type, 'ada')).toEqual(created);
      await expectNoEventsBefore(reader, () => storage.create(type, widget('marker')));
    });

    it('lets a mutation set deletionTimestamp once, and never moves or clears it', async () => {
      const { storage, type } = await h.widgets();
      await storage.create(type, widget('ada'));
      const marked = await storage.update(type, 'ada', (o) => ({
        ...o,
        metadata: { ...o.metadata, deletionTimestamp: DELETION_TIME },
      }));
      expect(marked.metadata.deletionTimestamp).toBe(DELETION_TIME);
      expect(marked.metadata.version).toBe(2);
      const moved = await storage.update(type, 'ada', (o) => ({
        ...o,
        metadata: { ...o.metadata, deletionTimestamp: '2040-01-01T00:00:00.000Z' },
        spec: { note: 'moved' },
      }));
      expect(moved.metadata.deletionTimestamp).toBe(DELETION_TIME);
      const cleared = await storage.update(type, 'ada', (o) => {
        const metadata = { ...o.metadata };
        delete metadata.deletionTimestamp;
        return { ...o, metadata, spec: { note: 'cleared' } };
      });
      expect(cleared.metadata.deletionTimestamp).toBe(DELETION_TIME);
      expect((await storage.get(type, 'ada')).metadata.deletionTimestamp).toBe(DELETION_TIME);
    });

    it('passes the current object to the mutation, which may be async', async () => {
      const { storage, type } = await h.widgets();
      const created = await storage.create(type, widget('ada', { note: 'a' }));
      const seen: ApiObject[] = [];
      const updated = await storage.update(type, 'ada', async (o) => {
        seen.push(structuredClone(o));
        await Promise.resolve();
        return { ...o, spec: { note: `${specOf(o).note}+b` } };
      });
      expect(seen).toEqual([created]);
      expect(specOf(updated).note).toBe('a+b');
    });

    it('aborts with the error a mutation throws, leaving the object as it was', async () => {
      const { storage, type } = await h.widgets();
      const created = await storage.create(type, widget('ada', { note: 'a' }));
      const boom = new Error('the mutation refused');
      await expect(
        storage.update(type, 'ada', (o) => {
          specOf(o).note = 'changed in place';
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(await storage.get(type, 'ada')).toEqual(created);
      expect(await storage.currentRevision(type)).toBe(created.metadata.resourceVersion);
    });
  });
}
