import type { Storage } from '../../pkg/storage';
import { LABELS_INDEX } from '../../pkg/storage/indexes';
import type { ListOptions } from '../../pkg/storage/query';
import { typeKeys } from '../../pkg/storage/redis';
import { orderMember } from '../../pkg/storage/redis/keys';
import { parseIndexValues } from '../../pkg/storage/redis/object-codec';
import { COLOR_INDEX, TAGS_INDEX, TEST_INDEXES, WIDGETS, namesOf, widget } from '../../pkg/storage/testing/fixtures';
import { uniqueKeyPrefix } from '../support/redis';
import { useRedisStorages } from '../support/redis-storages';

// Ordered indexes (ADR 0017) as the Redis layout holds them: members end with the order member, data in
// ADR 0010's layout (plain members and per-value sets) is rebuilt, and an index that changes its layout is
// built again. What lists return is the conformance suite's job; here, that they stay exact throughout.

const GOLD: ListOptions = { labelSelector: [{ key: 'tier', op: 'in', values: ['gold'] }] };
const RED: ListOptions = { fieldSelector: [{ field: COLOR_INDEX, op: 'in', values: ['red'] }] };
const suite = useRedisStorages();

const storageAt = (keyPrefix: string): Promise<Storage> => suite.open({ keyPrefix });

/** 20 widgets, every third one gold, colors alternating; returns the gold ones in the default order. */
async function fill(storage: Storage): Promise<string[]> {
  for (let i = 0; i < 20; i++) {
    const name = `w${String(i).padStart(2, '0')}`;
    await storage.create(WIDGETS, widget(name, { color: i % 2 ? 'red' : 'blue' }, { tier: i % 3 ? 'silver' : 'gold' }));
  }
  return namesOf((await storage.list(WIDGETS)).items).filter((name) => Number(name.slice(1)) % 3 === 0);
}

/** The members of one index, as bytes. */
const membersOf = (keyPrefix: string, index: string): Promise<Buffer[]> =>
  suite.redis.zrangebylexBuffer(typeKeys(keyPrefix, WIDGETS).index(index), '-', '+');

/** Rewrites one index into ADR 0010's layout: plain members, a per-value set, the value sets' state. */
async function toLegacyLayout(keyPrefix: string, index: string): Promise<void> {
  const keys = typeKeys(keyPrefix, WIDGETS);
  const plain = (await membersOf(keyPrefix, index)).map((m) => {
    const text = m.toString('latin1');
    return `${text.slice(0, text.indexOf('\0'))}\0${text.slice(text.lastIndexOf('\xff') + 1)}`;
  });
  await suite.redis.del(keys.index(index));
  await suite.redis.zadd(keys.index(index), ...plain.flatMap((m) => [0, Buffer.from(m, 'latin1')]));
  await suite.redis.zadd(`${keys.legacyValueSetPrefix}${index}\0tier=gold`, 0, 'x');
  await suite.redis.hset(keys.layouts, index, 'ready');
}

it('enters an object in an ordered index under its order member, in a plain one under its name', async () => {
  const keyPrefix = uniqueKeyPrefix('ord');
  const storage = await storageAt(keyPrefix);
  await storage.defineType(WIDGETS, TEST_INDEXES);
  const ada = await storage.create(WIDGETS, widget('ada', { color: 'red', tags: ['a'] }, { tier: 'gold' }));
  const order = orderMember(ada.metadata.creationTimestamp, 'ada');
  expect(await membersOf(keyPrefix, LABELS_INDEX)).toEqual([Buffer.concat([Buffer.from('tier=gold\0'), order])]);
  expect(await membersOf(keyPrefix, COLOR_INDEX)).toEqual([Buffer.concat([Buffer.from('red\0'), order])]);
  expect(await membersOf(keyPrefix, TAGS_INDEX)).toEqual([Buffer.from('a\0ada')]);
  expect(await suite.redis.hgetall(typeKeys(keyPrefix, WIDGETS).layouts)).toEqual({
    [LABELS_INDEX]: 'ordered',
    [COLOR_INDEX]: 'ordered',
  });

  await storage.update(WIDGETS, 'ada', (w) => ({ ...w, metadata: { ...w.metadata, labels: { tier: 'silver' } } }));
  expect(await membersOf(keyPrefix, LABELS_INDEX)).toEqual([Buffer.concat([Buffer.from('tier=silver\0'), order])]);
  await storage.delete(WIDGETS, 'ada');
  expect(await membersOf(keyPrefix, LABELS_INDEX)).toEqual([]);
  expect(await membersOf(keyPrefix, COLOR_INDEX)).toEqual([]);
});

it('rebuilds an index kept in the layout of ADR 0010 into the ordered one, deleting its per-value sets', async () => {
  const keyPrefix = uniqueKeyPrefix('ord');
  const keys = typeKeys(keyPrefix, WIDGETS);
  const first = await storageAt(keyPrefix);
  await first.defineType(WIDGETS, TEST_INDEXES);
  const gold = await fill(first);
  const before = await membersOf(keyPrefix, LABELS_INDEX);
  await toLegacyLayout(keyPrefix, LABELS_INDEX);

  const second = await storageAt(keyPrefix);
  await second.defineType(WIDGETS, TEST_INDEXES);
  await second.whenIndexesReady(WIDGETS);
  expect(await membersOf(keyPrefix, LABELS_INDEX)).toEqual(before);
  expect(await suite.redis.keys(`${keys.legacyValueSetPrefix}*`)).toEqual([]);
  expect(await suite.redis.hget(keys.layouts, LABELS_INDEX)).toBe('ordered');
  const page = await second.list(WIDGETS, { ...GOLD, offset: 1, limit: 3 });
  expect({ names: namesOf(page.items), total: page.total }).toEqual({ names: gold.slice(1, 4), total: gold.length });
});

it('builds an index again when it stops or starts being ordered; lists stay exact', async () => {
  const keyPrefix = uniqueKeyPrefix('ord');
  const storage = await storageAt(keyPrefix);
  await storage.defineType(WIDGETS, TEST_INDEXES);
  await fill(storage);
  const redNames = namesOf((await storage.list(WIDGETS, RED)).items);
  expect(redNames).toHaveLength(10);

  const plain = TEST_INDEXES.map((spec) => (spec.name === COLOR_INDEX ? { ...spec, valueSets: false } : spec));
  await storage.defineType(WIDGETS, plain);
  await storage.whenIndexesReady(WIDGETS);
  expect((await membersOf(keyPrefix, COLOR_INDEX)).map((m) => m.toString())).toContain('red\0w01');
  expect(await suite.redis.hget(typeKeys(keyPrefix, WIDGETS).layouts, COLOR_INDEX)).toBeNull();
  // Written while the index is plain: the ordered build must not find it under its old value.
  await storage.update(WIDGETS, 'w01', (w) => ({ ...w, spec: { ...(w.spec as object), color: 'blue' } }));
  expect(namesOf((await storage.list(WIDGETS, RED)).items)).toEqual(redNames.filter((n) => n !== 'w01'));

  await storage.defineType(WIDGETS, TEST_INDEXES);
  await storage.whenIndexesReady(WIDGETS);
  const page = await storage.list(WIDGETS, { ...RED, limit: 2 });
  expect({ names: namesOf(page.items), total: page.total }).toEqual({
    names: redNames.filter((n) => n !== 'w01').slice(0, 2),
    total: 9,
  });
  expect(await membersOf(keyPrefix, COLOR_INDEX)).toHaveLength(20);
});

it('a dropped ordered index loses its members and its layout', async () => {
  const keyPrefix = uniqueKeyPrefix('ord');
  const keys = typeKeys(keyPrefix, WIDGETS);
  const storage = await storageAt(keyPrefix);
  await storage.defineType(WIDGETS, TEST_INDEXES);
  await fill(storage);
  await storage.defineType(
    WIDGETS,
    TEST_INDEXES.filter((spec) => spec.name !== COLOR_INDEX),
  );
  expect(await suite.redis.exists(keys.index(COLOR_INDEX))).toBe(0);
  expect(await suite.redis.hget(keys.layouts, COLOR_INDEX)).toBeNull();
  expect((await storage.list(WIDGETS, GOLD)).total).toBe(7);
});

it('reads index values stored with every index spelled out (before short keys) and writes them short', async () => {
  const keyPrefix = uniqueKeyPrefix('ord');
  const keys = typeKeys(keyPrefix, WIDGETS);
  const storage = await storageAt(keyPrefix);
  await storage.defineType(WIDGETS, TEST_INDEXES);
  const gold = await fill(storage);
  // Rewrite every object's stored values as they were stored before: full index names, the name index included.
  for (const [name, stored] of Object.entries(await suite.redis.hgetall(keys.indexValues))) {
    const at = stored.indexOf('\n');
    const values = parseIndexValues(stored.slice(at + 1), name);
    await suite.redis.hset(keys.indexValues, name, `${stored.slice(0, at)}\n${JSON.stringify(values)}`);
  }
  expect(await suite.redis.hget(keys.indexValues, gold[0])).toContain('"metadata.labels"');

  await storage.update(WIDGETS, gold[0], (w) => ({ ...w, metadata: { ...w.metadata, labels: { tier: 'silver' } } }));
  await storage.delete(WIDGETS, gold[1]);
  const page = await storage.list(WIDGETS, { ...GOLD, sort: [{ index: 'metadata.name', direction: 'desc' }] });
  expect(namesOf(page.items)).toEqual(gold.slice(2).sort().reverse());
  expect(await membersOf(keyPrefix, 'metadata.name')).toHaveLength(19);
  const rewritten = (await suite.redis.hget(keys.indexValues, gold[0])) ?? '';
  expect(JSON.parse(rewritten.slice(rewritten.indexOf('\n') + 1))).toMatchObject({ '~l': ['tier=silver'] });
});
