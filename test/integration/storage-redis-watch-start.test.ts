import { openStorage, type Storage } from '../../pkg/storage';
import { sharedRedisUrl, uniqueKeyPrefix } from '../support/redis';

const TYPE = 'things.example.com';
const thing = (name: string) => ({ apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name } });

/**
 * Watchers that arrive together on a type this process does not read yet
 * (its stream reader's position still unknown) must each get the next
 * change, never a spurious Expired for the revision they just read.
 */
it('many watchers starting at once from the current revision all get the next change', async () => {
  for (let round = 0; round < 5; round++) {
    const storage: Storage = await openStorage(`${sharedRedisUrl()}?keyPrefix=${uniqueKeyPrefix('start')}`);
    try {
      await storage.defineType(TYPE, []);
      await storage.create(TYPE, thing('a'));
      const revision = await storage.currentRevision(TYPE);
      const watchers = [];
      for (let i = 0; i < 50; i++) {
        watchers.push(storage.watch(TYPE, { fromRevision: revision }));
        await new Promise((r) => setImmediate(r));
      }
      const firsts = watchers.map((w) =>
        w[Symbol.asyncIterator]()
          .next()
          .then(
            (r) => (r.done ? 'ended' : `${r.value.type} ${r.value.object.metadata.name}`),
            (err: Error) => `error: ${err.message}`,
          ),
      );
      // Round trips on the storage's connection: the watchers' catch-up reads, sent before, are answered first.
      for (let i = 0; i < 3; i++) await storage.currentRevision(TYPE);
      await storage.create(TYPE, thing('b'));
      expect(new Set(await Promise.all(firsts))).toEqual(new Set(['ADDED b']));
      watchers.forEach((w) => w.stop());
    } finally {
      await storage.close();
    }
  }
});
