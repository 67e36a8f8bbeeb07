import type { ApiObject } from '../../api/object';
import { openStorage } from '../backends';
import { isStorageError, type StorageError } from '../errors';
import type { IndexSpec } from '../indexes';
import { MemoryStorage } from './index';

const TYPE = 'widgets.test.svc.run';
const COLOR: IndexSpec = { name: 'spec.color', indexFunc: (o) => (o.spec as { color?: string } | undefined)?.color };

const widget = (name: string, spec: Record<string, unknown> = {}, labels?: Record<string, string>): ApiObject => ({
  apiVersion: 'test.svc.run/v1',
  kind: 'Widget',
  metadata: labels ? { name, labels } : { name },
  spec,
});

async function caught(promise: Promise<unknown>): Promise<StorageError> {
  try {
    await promise;
  } catch (err) {
    if (isStorageError(err)) return err;
    throw err;
  }
  throw new Error('expected a StorageError, the call succeeded');
}

const names = (objects: ApiObject[]) => objects.map((o) => o.metadata.name);

describe('MemoryStorage', () => {
  let storage: MemoryStorage;
  beforeEach(() => {
    storage = new MemoryStorage();
  });
  afterEach(() => storage.close());

  describe('registration and options', () => {
    it('is what openStorage("memory://") opens, a separate empty store each time', async () => {
      const a = await openStorage('memory://');
      const b = await openStorage('memory://');
      expect(a).toBeInstanceOf(MemoryStorage);
      await a.create(TYPE, widget('ada'));
      expect((await b.list(TYPE)).total).toBe(0);
      await Promise.all([a.close(), b.close()]);
    });

    it('refuses nonsensical sizes at construction', () => {
      expect(() => new MemoryStorage({ watchBuffer: 0 })).toThrow(/watchBuffer/);
      expect(() => new MemoryStorage({ indexBuildBatch: 1.5 })).toThrow(/indexBuildBatch/);
      expect(() => new MemoryStorage({ watchRetention: -1 })).toThrow(/watchRetention/);
    });
  });

  describe('types never defined', () => {
    it('are defined with the default indexes by the first verb that names them', async () => {
      expect(await storage.currentRevision(TYPE)).toBe('0');
      await storage.create(TYPE, widget('ada', {}, { app: 'web' }));
      const result = await storage.list(TYPE, { labelSelector: [{ key: 'app', op: 'exists', values: [] }] });
      expect(names(result.items)).toEqual(['ada']);
      expect(storage.indexStatus(TYPE)).toEqual({ ready: true, building: [] });
    });

    it('are NotFound for indexStatus and whenIndexesReady, which do not define them', async () => {
      expect(() => storage.indexStatus('never.svc.run')).toThrow(expect.objectContaining({ code: 'NotFound' }));
      expect((await caught(storage.whenIndexesReady('never.svc.run'))).code).toBe('NotFound');
      expect(() => storage.indexStatus('never.svc.run')).toThrow();
    });
  });

  describe('object ownership', () => {
    it('keeps its own copy of what a caller created, returned, or returned from mutate', async () => {
      const input = widget('ada', { color: 'red' });
      const created = await storage.create(TYPE, input);
      (input.spec as { color: string }).color = 'changed-input';
      (created.spec as { color: string }).color = 'changed-output';
      let returnedByMutate: ApiObject | undefined;
      await storage.update(TYPE, 'ada', (current) => {
        returnedByMutate = { ...current, spec: { color: 'blue' } };
        return returnedByMutate;
      });
      (returnedByMutate?.spec as { color: string }).color = 'changed-after-update';
      expect((await storage.get(TYPE, 'ada')).spec).toEqual({ color: 'blue' });
    });
  });

  describe('watch events', () => {
    it('are one frozen object shared by every watcher', async () => {
      const a = storage.watch(TYPE)[Symbol.asyncIterator]();
      const b = storage.watch(TYPE)[Symbol.asyncIterator]();
      await storage.create(TYPE, widget('ada', { color: 'red' }));
      const [ea, eb] = await Promise.all([a.next(), b.next()]);
      expect(ea.value).toBe(eb.value);
      const object = (ea.value as { object: ApiObject }).object;
      expect(Object.isFrozen(ea.value)).toBe(true);
      expect(() => {
        (object.spec as { color: string }).color = 'blue';
      }).toThrow(TypeError);
      expect((await storage.get(TYPE, 'ada')).spec).toEqual({ color: 'red' });
    });

    it('reach a waiting watcher after the write returns control, never inside it', async () => {
      const iterator = storage.watch(TYPE)[Symbol.asyncIterator]();
      let delivered = false;
      const reading = iterator.next().then(() => {
        delivered = true;
      });
      const writing = storage.create(TYPE, widget('ada'));
      expect(delivered).toBe(false);
      await Promise.all([writing, reading]);
      expect(delivered).toBe(true);
    });

    it('MODIFIED carries the index values the object had before the change', async () => {
      await storage.defineType(TYPE, [COLOR]);
      await storage.create(TYPE, widget('ada', { color: 'red' }, { app: 'web' }));
      const iterator = storage.watch(TYPE)[Symbol.asyncIterator]();
      await storage.update(TYPE, 'ada', (o) => ({
        ...o,
        metadata: { ...o.metadata, labels: { app: 'api' } },
        spec: { color: 'blue' },
      }));
      const { value } = await iterator.next();
      expect(value?.type).toBe('MODIFIED');
      expect(value?.previousIndexValues?.['metadata.labels']).toEqual(['app=web']);
      expect(value?.previousIndexValues?.['spec.color']).toEqual(['red']);
      expect(value?.object.spec).toEqual({ color: 'blue' });
    });
  });

  describe('updates with an async mutation', () => {
    it('without preconditions, run the mutation again on the newer object when overtaken', async () => {
      await storage.create(TYPE, widget('ada', { count: 0 }));
      let calls = 0;
      let overtake = true;
      const increment = async (o: ApiObject): Promise<ApiObject> => {
        calls++;
        const count = (o.spec as { count: number }).count;
        if (overtake) {
          overtake = false;
          await storage.update(TYPE, 'ada', (x) => ({ ...x, spec: { count: 100 } }));
        }
        return { ...o, spec: { count: count + 1 } };
      };
      const updated = await storage.update(TYPE, 'ada', increment);
      expect(calls).toBe(2);
      expect(updated.spec).toEqual({ count: 101 });
    });

    it('with a precondition, fail with Conflict when overtaken', async () => {
      const ada = await storage.create(TYPE, widget('ada', { count: 0 }));
      const slow = storage.update(
        TYPE,
        'ada',
        async (o) => {
          await storage.update(TYPE, 'ada', (x) => ({ ...x, spec: { count: 100 } }));
          return { ...o, spec: { count: 1 } };
        },
        { version: ada.metadata.version },
      );
      expect((await caught(slow)).code).toBe('Conflict');
      expect((await storage.get(TYPE, 'ada')).spec).toEqual({ count: 100 });
    });
  });

  describe('index builds', () => {
    const batch = 10;
    const count = 35;

    async function withObjects(): Promise<void> {
      await storage.close();
      storage = new MemoryStorage({ indexBuildBatch: batch });
      await storage.defineType(TYPE, []);
      for (let i = 0; i < count; i++) {
        await storage.create(TYPE, widget(`w${String(i).padStart(2, '0')}`, { color: i % 2 === 0 ? 'red' : 'blue' }));
      }
    }

    it('report progress per batch, refuse queries on the index until done, then answer them', async () => {
      await withObjects();
      const progress: number[] = [];
      await storage.defineType(TYPE, [COLOR], (p) => progress.push(p.done));

      expect(storage.indexStatus(TYPE)).toEqual({
        ready: false,
        building: [{ name: 'spec.color', done: 0, total: count }],
      });
      const refused = await caught(storage.list(TYPE, { sort: [{ index: 'spec.color', direction: 'asc' }] }));
      expect([refused.code, refused.details.index]).toEqual(['Unavailable', 'spec.color']);
      expect((await storage.list(TYPE, { limit: 1 })).total).toBe(count);

      await storage.whenIndexesReady(TYPE);
      expect(progress).toEqual([10, 20, 30, 35]);
      expect(storage.indexStatus(TYPE).ready).toBe(true);
      const red = await storage.list(TYPE, { fieldSelector: [{ field: 'spec.color', op: 'in', values: ['red'] }] });
      expect(red.total).toBe(18);
    });

    it('stay correct under writes made between batches', async () => {
      await withObjects();
      const writes: Promise<unknown>[] = [];
      await storage.defineType(TYPE, [COLOR], ({ done }) => {
        if (done !== batch) return;
        // w00 is indexed already; w30, w31 and w33 are not reached yet.
        writes.push(
          storage.update(TYPE, 'w00', (o) => ({ ...o, spec: { color: 'green' } })),
          storage.update(TYPE, 'w30', (o) => ({ ...o, spec: { color: 'green' } })),
          storage.update(TYPE, 'w33', (o) => ({ ...o, spec: {} })),
          storage.delete(TYPE, 'w31'),
          storage.create(TYPE, widget('new', { color: 'green' })),
        );
      });
      await storage.whenIndexesReady(TYPE);
      await Promise.all(writes);
      expect(writes).toHaveLength(5);

      const byColor = async (color: string) =>
        names(
          (
            await storage.list(TYPE, {
              fieldSelector: [{ field: 'spec.color', op: 'in', values: [color] }],
              sort: [{ index: 'metadata.name', direction: 'asc' }],
            })
          ).items,
        );
      expect(await byColor('green')).toEqual(['new', 'w00', 'w30']);
      expect(await byColor('blue')).not.toContain('w31');
      expect(await byColor('blue')).not.toContain('w33');
      const sorted = await storage.list(TYPE, { sort: [{ index: 'spec.color', direction: 'asc' }] });
      expect(sorted.items[sorted.items.length - 1].metadata.name).toBe('w33'); // no value: last
    });

    it('stop when the index is dropped, and a dropped index is unknown to queries', async () => {
      await withObjects();
      await storage.defineType(TYPE, [COLOR]);
      await storage.defineType(TYPE, []);
      await storage.whenIndexesReady(TYPE);
      expect(storage.indexStatus(TYPE)).toEqual({ ready: true, building: [] });
      const err = await caught(storage.list(TYPE, { sort: [{ index: 'spec.color', direction: 'asc' }] }));
      expect(err.code).toBe('Invalid');
      expect(err.message).toContain('spec.color');
      expect(err.message).toContain('metadata.creationTimestamp');
    });

    it('need no build for a type without objects', async () => {
      await storage.defineType(TYPE, [COLOR]);
      expect(storage.indexStatus(TYPE).ready).toBe(true);
    });
  });

  describe('close', () => {
    it('ends pending watch reads, and every later call fails with Unavailable', async () => {
      const iterator = storage.watch(TYPE)[Symbol.asyncIterator]();
      const pending = iterator.next();
      await storage.close();
      expect(await pending).toEqual({ value: undefined, done: true });
      expect(await storage.ping()).toBe(false);
      expect((await caught(storage.get(TYPE, 'ada'))).code).toBe('Unavailable');
      expect((await caught(storage.watch(TYPE)[Symbol.asyncIterator]().next())).code).toBe('Unavailable');
    });
  });
});
