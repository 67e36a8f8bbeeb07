import { openStorage, type Storage } from '../../pkg/storage';
import type { StorageOptions } from '../../pkg/storage/interface';
import { typeKeys } from '../../pkg/storage/redis';
import { TEST_INDEXES, WIDGETS, namesOf, widget } from '../../pkg/storage/testing/fixtures';
import { runStorageConformance } from '../../pkg/storage/testing/suite';
import { WatchReader } from '../../pkg/storage/testing/watch-reader';
import { sharedRedisUrl, uniqueKeyPrefix } from '../support/redis';
import { useRedisStorages } from '../support/redis-storages';

// Objects deflated against a per-type dictionary (ADR 0026): the whole conformance suite, alone and with bucketed
// index sets (the layout for the least memory), then what Redis holds, and that either form reads back in either
// setting, watches included.
runStorageConformance('redis, compressed objects', (options) =>
  openStorage(sharedRedisUrl(), { ...options, keyPrefix: uniqueKeyPrefix(), compression: 'deflate' }),
);
runStorageConformance('redis, compressed objects and bucketed index sets', (options) =>
  openStorage(sharedRedisUrl(), {
    ...options,
    keyPrefix: uniqueKeyPrefix(),
    compression: 'deflate',
    indexLayout: 'bucketed',
  }),
);

const suite = useRedisStorages();

async function storageAt(keyPrefix: string, compression: StorageOptions['compression']): Promise<Storage> {
  const storage = await suite.open({ keyPrefix, compression });
  await storage.defineType(WIDGETS, TEST_INDEXES);
  return storage;
}

const bio = 'A widget of the compression test, with a sentence that every widget shares. ';

it("stores objects deflated against the type's first object, a fraction of their JSON", async () => {
  const keyPrefix = uniqueKeyPrefix('deflate');
  const storage = await storageAt(keyPrefix, 'deflate');
  const created = [];
  for (let i = 0; i < 30; i++) {
    created.push(await storage.create(WIDGETS, widget(`w${i}`, { color: bio.repeat(4), rank: String(i) })));
  }
  const keys = typeKeys(keyPrefix, WIDGETS);
  const first = JSON.parse((await suite.redis.get(keys.dictionary)) ?? '{}') as { metadata: Record<string, unknown> };
  expect(first.metadata).toMatchObject({ name: 'w0', resourceVersion: '' });
  const stored = (await suite.redis.hget(keys.objects, 'w29')) ?? '';
  expect(stored).toMatch(new RegExp(`^z${created[29].metadata.resourceVersion}:`));
  expect(stored.length).toBeLessThan(JSON.stringify(created[29]).length / 4);
  expect(await storage.get(WIDGETS, 'w29')).toEqual(created[29]);
  const byName = (x: { metadata: { name?: string } }, y: { metadata: { name?: string } }) =>
    (x.metadata.name ?? '').localeCompare(y.metadata.name ?? '');
  expect((await storage.list(WIDGETS, { limit: 100 })).items.sort(byName)).toEqual([...created].sort(byName));
});

it('reads either form in either setting, and a delete of a compressed object shows watchers its JSON', async () => {
  const keyPrefix = uniqueKeyPrefix('deflate');
  const plain = await storageAt(keyPrefix, 'none');
  const compressed = await storageAt(keyPrefix, 'deflate');
  const a = await plain.create(WIDGETS, widget('a', { color: 'red' }));
  const b = await compressed.create(WIDGETS, widget('b', { color: 'blue' }));
  const keys = typeKeys(keyPrefix, WIDGETS);
  expect((await suite.redis.hget(keys.objects, 'a'))?.startsWith('{')).toBe(true);
  expect((await suite.redis.hget(keys.objects, 'b'))?.startsWith('z')).toBe(true);
  for (const storage of [plain, compressed]) {
    expect(await storage.get(WIDGETS, 'b')).toEqual(b);
    expect(namesOf((await storage.list(WIDGETS)).items).sort()).toEqual(['a', 'b']);
  }
  // Each store rewrites what it writes in its own form.
  await compressed.update(WIDGETS, 'a', (w) => ({ ...w, spec: { color: 'green' } }));
  expect((await suite.redis.hget(keys.objects, 'a'))?.startsWith('z')).toBe(true);

  const watch = new WatchReader(plain.watch(WIDGETS, { fromRevision: b.metadata.resourceVersion }));
  try {
    const deleted = await plain.delete(WIDGETS, 'b');
    expect(deleted.spec).toEqual({ color: 'blue' });
    const [modified, removal] = await watch.take(2);
    expect(modified.object.metadata.name).toBe('a');
    expect(removal).toMatchObject({ type: 'DELETED', object: { metadata: { name: 'b' }, spec: { color: 'blue' } } });
    expect(removal.object.metadata.resourceVersion).toBe(deleted.metadata.resourceVersion);
  } finally {
    watch.stop();
  }
  expect(await suite.redis.hexists(keys.objects, 'b')).toBe(0);
  expect(a.metadata.name).toBe('a');
});

it('lets two processes writing the first objects at once agree on one dictionary', async () => {
  const keyPrefix = uniqueKeyPrefix('deflate');
  const [one, two] = await Promise.all([storageAt(keyPrefix, 'deflate'), storageAt(keyPrefix, 'deflate')]);
  const written = await Promise.all(
    Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).create(WIDGETS, widget(`w${i}`, { rank: bio }))),
  );
  for (const storage of [one, two]) {
    expect((await storage.list(WIDGETS, { limit: 20 })).items.length).toBe(10);
    for (const object of written) expect(await storage.get(WIDGETS, object.metadata.name ?? '')).toEqual(object);
  }
});
