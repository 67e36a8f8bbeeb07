import { openStorage, type Storage } from '../../pkg/storage';
import { LABELS_INDEX } from '../../pkg/storage/indexes';
import type { StorageOptions } from '../../pkg/storage/interface';
import type { ListOptions } from '../../pkg/storage/query';
import { typeKeys } from '../../pkg/storage/redis';
import { bucketedSetMembers } from '../../pkg/storage/redis/bucketed-set-members';
import { orderMember } from '../../pkg/storage/redis/keys';
import { runStorageConformance } from '../../pkg/storage/testing/suite';
import { COLOR_INDEX, TAGS_INDEX, TEST_INDEXES, WIDGETS, namesOf, widget } from '../../pkg/storage/testing/fixtures';
import { sharedRedisUrl, uniqueKeyPrefix } from '../support/redis';
import { useRedisStorages } from '../support/redis-storages';

// The bucketed index layout (ADR 0025): the whole conformance suite, then what the layout holds, and that a
// store switching layouts rebuilds its indexes once, with lists exact after.
runStorageConformance('redis, bucketed index layout', (options) =>
  openStorage(sharedRedisUrl(), { ...options, keyPrefix: uniqueKeyPrefix(), indexLayout: 'bucketed' }),
);

const GOLD: ListOptions = { labelSelector: [{ key: 'tier', op: 'in', values: ['gold'] }] };
const DEFAULT_INDEXES = [
  'metadata.name',
  'metadata.labels',
  'metadata.creationTimestamp',
  'metadata.deletionTimestamp',
];
const suite = useRedisStorages();

const storageAt = (keyPrefix: string, indexLayout: StorageOptions['indexLayout']): Promise<Storage> =>
  suite.open({ keyPrefix, indexLayout });

/** 200 widgets (several buckets per index), every third one gold; returns the gold ones in the default order. */
async function fill(storage: Storage): Promise<string[]> {
  for (let i = 0; i < 200; i++) {
    const name = `w${String(i).padStart(3, '0')}`;
    await storage.create(
      WIDGETS,
      widget(name, { color: i % 2 ? 'red' : 'blue', tags: [`t${i % 7}`] }, { tier: i % 3 ? 'silver' : 'gold' }),
    );
  }
  return namesOf((await storage.list(WIDGETS, { limit: 500 })).items).filter((name) => Number(name.slice(1)) % 3 === 0);
}

const bucketedMembers = (keyPrefix: string, index: string): Promise<Buffer[]> =>
  bucketedSetMembers(suite.redis, typeKeys(keyPrefix, WIDGETS, 'bucketed').index(index));
const plainMembers = (keyPrefix: string, index: string): Promise<Buffer[]> =>
  suite.redis.zrangeBuffer(typeKeys(keyPrefix, WIDGETS, 'plain').index(index), 0, -1);

/** The gold page from offset 1, and its total. */
async function goldPage(storage: Storage) {
  const page = await storage.list(WIDGETS, { ...GOLD, offset: 1, limit: 3 });
  return { names: namesOf(page.items), total: page.total };
}

it('enters an object in an ordered index under its order member, in a plain one under its name', async () => {
  const keyPrefix = uniqueKeyPrefix('bkt');
  const storage = await storageAt(keyPrefix, 'bucketed');
  await storage.defineType(WIDGETS, TEST_INDEXES);
  const ada = await storage.create(WIDGETS, widget('ada', { color: 'red', tags: ['a'] }, { tier: 'gold' }));
  const order = orderMember(ada.metadata.creationTimestamp, 'ada');
  expect(await bucketedMembers(keyPrefix, LABELS_INDEX)).toEqual([Buffer.concat([Buffer.from('tier=gold\0'), order])]);
  expect(await bucketedMembers(keyPrefix, COLOR_INDEX)).toEqual([Buffer.concat([Buffer.from('red\0'), order])]);
  expect(await bucketedMembers(keyPrefix, TAGS_INDEX)).toEqual([Buffer.from('a\0ada')]);
  const layouts = await suite.redis.hgetall(typeKeys(keyPrefix, WIDGETS).layouts);
  expect(Object.keys(layouts).sort()).toEqual([...DEFAULT_INDEXES, ...TEST_INDEXES.map((s) => s.name)].sort());
  expect(layouts).toMatchObject({
    [LABELS_INDEX]: 'bucketed ordered',
    [COLOR_INDEX]: 'bucketed ordered',
    [TAGS_INDEX]: 'bucketed',
  });
  // Nothing in the plain layout's keys.
  expect(await suite.redis.keys(`${typeKeys(keyPrefix, WIDGETS, 'plain').indexPrefixes.plain}*`)).toEqual([]);

  await storage.delete(WIDGETS, 'ada');
  expect(await bucketedMembers(keyPrefix, LABELS_INDEX)).toEqual([]);
  expect(await suite.redis.keys(`${typeKeys(keyPrefix, WIDGETS).indexPrefixes.bucketed}*`)).toEqual([]);
});

it('rebuilds a plain store into bucketed sets and back, deleting the other layout; lists stay exact', async () => {
  const keyPrefix = uniqueKeyPrefix('bkt');
  const keys = typeKeys(keyPrefix, WIDGETS);
  const plain = await storageAt(keyPrefix, 'plain');
  await plain.defineType(WIDGETS, TEST_INDEXES);
  const gold = await fill(plain);
  const labels = await plainMembers(keyPrefix, LABELS_INDEX);
  const tags = await plainMembers(keyPrefix, TAGS_INDEX);
  const expected = { names: gold.slice(1, 4), total: gold.length };
  expect(await goldPage(plain)).toEqual(expected);
  await plain.close();

  const bucketed = await storageAt(keyPrefix, 'bucketed');
  await bucketed.defineType(WIDGETS, TEST_INDEXES);
  await bucketed.whenIndexesReady(WIDGETS);
  expect(await bucketedMembers(keyPrefix, LABELS_INDEX)).toEqual(labels);
  expect(await bucketedMembers(keyPrefix, TAGS_INDEX)).toEqual(tags);
  expect(await suite.redis.keys(`${keys.indexPrefixes.plain}*`)).toEqual([]);
  expect(await suite.redis.zcard(typeKeys(keyPrefix, WIDGETS, 'bucketed').index(LABELS_INDEX))).toBeGreaterThan(1);
  expect(await goldPage(bucketed)).toEqual(expected);
  await bucketed.update(WIDGETS, gold[1], (w) => ({ ...w, metadata: { ...w.metadata, labels: { tier: 'silver' } } }));
  await bucketed.close();

  const again = await storageAt(keyPrefix, 'plain');
  await again.defineType(WIDGETS, TEST_INDEXES);
  await again.whenIndexesReady(WIDGETS);
  expect(await suite.redis.keys(`${keys.indexPrefixes.bucketed}*`)).toEqual([]);
  expect(await suite.redis.hget(keys.layouts, LABELS_INDEX)).toBe('ordered');
  expect(await goldPage(again)).toEqual({ names: [gold[2], gold[3], gold[4]], total: gold.length - 1 });
});

it('rebuilds an index kept in the layout of ADR 0010 into a bucketed set, deleting its per-value sets', async () => {
  const keyPrefix = uniqueKeyPrefix('bkt');
  const keys = typeKeys(keyPrefix, WIDGETS, 'plain');
  const first = await storageAt(keyPrefix, 'plain');
  await first.defineType(WIDGETS, TEST_INDEXES);
  const gold = await fill(first);
  // ADR 0010's layout: plain members (value, NUL, name), a per-value set beside them, `ready` recorded.
  const plain = (await plainMembers(keyPrefix, LABELS_INDEX)).map((m) => {
    const text = m.toString('latin1');
    return Buffer.from(`${text.slice(0, text.indexOf('\0'))}\0${text.slice(text.lastIndexOf('\xff') + 1)}`, 'latin1');
  });
  await suite.redis.del(keys.index(LABELS_INDEX));
  await suite.redis.zadd(keys.index(LABELS_INDEX), ...plain.flatMap((m) => [0, m]));
  await suite.redis.zadd(`${keys.legacyValueSetPrefix}${LABELS_INDEX}\0tier=gold`, 0, 'x');
  await suite.redis.hset(keys.layouts, LABELS_INDEX, 'ready');
  await first.close();

  const second = await storageAt(keyPrefix, 'bucketed');
  await second.defineType(WIDGETS, TEST_INDEXES);
  await second.whenIndexesReady(WIDGETS);
  expect(await suite.redis.keys(`${keys.legacyValueSetPrefix}*`)).toEqual([]);
  expect(await suite.redis.hget(keys.layouts, LABELS_INDEX)).toBe('bucketed ordered');
  expect(await goldPage(second)).toEqual({ names: gold.slice(1, 4), total: gold.length });
});

it('puts every bucket of a type under its hash tag', async () => {
  const keyPrefix = uniqueKeyPrefix('bkt');
  const storage = await storageAt(keyPrefix, 'bucketed');
  await storage.defineType(WIDGETS, TEST_INDEXES);
  await fill(storage);
  const keys = await suite.redis.keys(`${keyPrefix}:*`);
  expect(keys.length).toBeGreaterThan(20);
  for (const key of keys) expect(key.startsWith(`${keyPrefix}:{${WIDGETS}}:`)).toBe(true);
});
