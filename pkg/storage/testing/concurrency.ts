import { isStorageError } from '../errors';
import type { ApiObject } from '../../api/object';
import { CODE_INDEX, setSpec, specOf, widget } from './fixtures';
import type { Harness } from './harness';

const WRITERS = 50;

/** Settles every promise and counts the outcomes: fulfilled, or rejected with a StorageError of which code. */
async function outcomes(promises: Promise<ApiObject>[]) {
  const settled = await Promise.allSettled(promises);
  const fulfilled = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const codes = settled.flatMap((s) => {
    if (s.status === 'fulfilled') return [];
    return [isStorageError(s.reason) ? s.reason.code : `not a StorageError: ${String(s.reason)}`];
  });
  return { fulfilled, codes };
}

/** Concurrent writers: no lost update, exactly one winner under a shared precondition or name. */
export function describeConcurrency(h: Harness): void {
  describe('concurrency', () => {
    it(`${WRITERS} concurrent unconditional increments lose no update`, async () => {
      const { storage, type } = await h.widgets();
      await storage.create(type, widget('counter', { counter: 0 }));
      const increments = Array.from({ length: WRITERS }, () =>
        storage.update(type, 'counter', (o) => ({
          ...o,
          spec: { ...specOf(o), counter: (specOf(o).counter ?? 0) + 1 },
        })),
      );
      const { fulfilled, codes } = await outcomes(increments);
      expect(codes).toEqual([]);
      const final = await storage.get(type, 'counter');
      expect(specOf(final).counter).toBe(WRITERS);
      expect(final.metadata.version).toBe(WRITERS + 1);
      // Each writer's result is its own write: all versions and counters distinct.
      expect(new Set(fulfilled.map((o) => o.metadata.version)).size).toBe(WRITERS);
      expect(fulfilled.map((o) => specOf(o).counter).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
        Array.from({ length: WRITERS }, (_, i) => i + 1),
      );
    });

    it(`${WRITERS} concurrent updates under the same precondition: exactly one wins, the others Conflict`, async () => {
      const { storage, type } = await h.widgets();
      const created = await storage.create(type, widget('contested', { note: 'none' }));
      const { version, resourceVersion } = created.metadata;
      const updates = Array.from({ length: WRITERS }, (_, i) =>
        storage.update(type, 'contested', setSpec({ note: `writer-${i}` }), i % 2 ? { version } : { resourceVersion }),
      );
      const { fulfilled, codes } = await outcomes(updates);
      expect(fulfilled).toHaveLength(1);
      expect(codes).toEqual(Array(WRITERS - 1).fill('Conflict'));
      const final = await storage.get(type, 'contested');
      expect(final).toEqual(fulfilled[0]);
      expect(final.metadata.version).toBe(2);
    });

    it('concurrent creates of one name: exactly one succeeds, the others AlreadyExists', async () => {
      const { storage, type } = await h.widgets();
      const creates = Array.from({ length: WRITERS }, (_, i) => storage.create(type, widget('only', { note: `${i}` })));
      const { fulfilled, codes } = await outcomes(creates);
      expect(fulfilled).toHaveLength(1);
      expect(codes).toEqual(Array(WRITERS - 1).fill('AlreadyExists'));
      expect(await storage.get(type, 'only')).toEqual(fulfilled[0]);
    });

    it('concurrent creates of one unique value: exactly one succeeds, the others Conflict', async () => {
      const { storage, type } = await h.widgets();
      const creates = Array.from({ length: WRITERS }, (_, i) =>
        storage.create(type, widget(`w${i}`, { code: 'shared' })),
      );
      const { fulfilled, codes } = await outcomes(creates);
      expect(fulfilled).toHaveLength(1);
      expect(codes).toEqual(Array(WRITERS - 1).fill('Conflict'));
      const holders = await storage.list(type, {
        fieldSelector: [{ field: CODE_INDEX, op: 'in', values: ['shared'] }],
      });
      expect(holders.items).toEqual(fulfilled);
      expect((await storage.list(type)).total).toBe(1);
    });

    it('concurrent deletes of one object: exactly one succeeds, the others NotFound', async () => {
      const { storage, type } = await h.widgets();
      await storage.create(type, widget('doomed'));
      const deletes = Array.from({ length: WRITERS }, () => storage.delete(type, 'doomed'));
      const { fulfilled, codes } = await outcomes(deletes);
      expect(fulfilled).toHaveLength(1);
      expect(codes).toEqual(Array(WRITERS - 1).fill('NotFound'));
    });
  });
}
