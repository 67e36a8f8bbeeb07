import Redis from 'ioredis';
import { openStorage, type Storage } from '../../pkg/storage';
import { LABELS_INDEX } from '../../pkg/storage/indexes';
import type { ListOptions } from '../../pkg/storage/query';
import { typeKeys } from '../../pkg/storage/redis';
import {
  COLOR_INDEX,
  RANK_INDEX,
  TAGS_INDEX,
  TEST_INDEXES,
  WIDGETS,
  namesOf,
  widget,
} from '../../pkg/storage/testing/fixtures';
import { sharedRedisUrl, uniqueKeyPrefix } from '../support/redis';
import { waitFor } from '../support/wait-for';

// The value sets of ADR 0010 as the Redis layout holds them: filled for data written before they existed,
// built with an index, removed with it. What lists return is the conformance suite's job.

const GOLD: ListOptions = { labelSelector: [{ key: 'tier', op: 'in', values: ['gold'] }] };
const open: Storage[] = [];
let redis: Redis;

beforeAll(() => {
  redis = new Redis(sharedRedisUrl());
});
afterAll(() => redis.disconnect());
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function storageAt(keyPrefix: string): Promise<Storage> {
  const storage = await openStorage(sharedRedisUrl(), { keyPrefix });
  open.push(storage);
  return storage;
}

/** 20 widgets, every third one gold, colors alternating; returns the gold ones in the default order. */
async function fill(storage: Storage): Promise<string[]> {
  for (let i = 0; i < 20; i++) {
    const name = `w${String(i).padStart(2, '0')}`;
    await storage.create(WIDGETS, widget(name, { color: i % 2 ? 'red' : 'blue' }, { tier: i % 3 ? 'silver' : 'gold' }));
  }
  return namesOf((await storage.list(WIDGETS)).items).filter((name) => Number(name.slice(1)) % 3 === 0);
}

async function removeValueSets(keyPrefix: string): Promise<void> {
  const keys = typeKeys(keyPrefix, WIDGETS);
  const sets = await redis.keys(`${keys.valueSetPrefix}*`);
  expect(sets.length).toBeGreaterThan(0);
  await redis.del(...sets, keys.valueSetStates);
}

it('lists stay exact for data without value sets, which defineType fills and lists then use', async () => {
  const keyPrefix = uniqueKeyPrefix('vs');
  const keys = typeKeys(keyPrefix, WIDGETS);
  const first = await storageAt(keyPrefix);
  await first.defineType(WIDGETS, TEST_INDEXES);
  const gold = await fill(first);
  await removeValueSets(keyPrefix);

  const before = await first.list(WIDGETS, { ...GOLD, limit: 3 });
  expect({ names: namesOf(before.items), total: before.total }).toEqual({
    names: gold.slice(0, 3),
    total: gold.length,
  });

  const second = await storageAt(keyPrefix);
  await second.defineType(WIDGETS, TEST_INDEXES);
  await waitFor(
    async () =>
      (await redis.hget(keys.valueSetStates, LABELS_INDEX)) === 'ready' &&
      (await redis.hget(keys.valueSetStates, COLOR_INDEX)) === 'ready',
    { what: 'value sets filled' },
  );
  expect(await redis.zcard(keys.valueSet(LABELS_INDEX, 'tier=gold'))).toBe(gold.length);
  expect(await redis.zcard(keys.valueSet(COLOR_INDEX, 'red'))).toBe(10);
  const after = await second.list(WIDGETS, { ...GOLD, offset: 1, limit: 3 });
  expect({ names: namesOf(after.items), total: after.total }).toEqual({ names: gold.slice(1, 4), total: gold.length });
  // A token from the walk without value sets resumes where it ended.
  const resumed = await second.list(WIDGETS, { ...GOLD, limit: 3, continue: before.continue });
  expect(namesOf(resumed.items)).toEqual(gold.slice(3, 6));
});

it('an index built for existing objects gets its value sets; a dropped index loses them', async () => {
  const keyPrefix = uniqueKeyPrefix('vs');
  const keys = typeKeys(keyPrefix, WIDGETS);
  const storage = await storageAt(keyPrefix);
  await storage.defineType(WIDGETS, []);
  await fill(storage);
  expect(await redis.hget(keys.valueSetStates, COLOR_INDEX)).toBeNull();

  await storage.defineType(WIDGETS, TEST_INDEXES);
  await storage.whenIndexesReady(WIDGETS);
  expect(await redis.hget(keys.valueSetStates, COLOR_INDEX)).toBe('ready');
  expect(await redis.zcard(keys.valueSet(COLOR_INDEX, 'red'))).toBe(10);
  expect(await redis.zcard(keys.valueSet(COLOR_INDEX, 'blue'))).toBe(10);

  await storage.defineType(
    WIDGETS,
    TEST_INDEXES.filter((spec) => spec.name !== COLOR_INDEX),
  );
  expect(await redis.exists(keys.valueSet(COLOR_INDEX, 'red'), keys.valueSet(COLOR_INDEX, 'blue'))).toBe(0);
  expect(await redis.hget(keys.valueSetStates, COLOR_INDEX)).toBeNull();
  expect(await redis.zcard(keys.valueSet(LABELS_INDEX, 'tier=gold'))).toBe(7);
});

it('an index that stops asking for value sets loses them; asking again fills them afresh', async () => {
  const keyPrefix = uniqueKeyPrefix('vs');
  const keys = typeKeys(keyPrefix, WIDGETS);
  const storage = await storageAt(keyPrefix);
  await storage.defineType(WIDGETS, TEST_INDEXES);
  await fill(storage);
  expect(await redis.zcard(keys.valueSet(COLOR_INDEX, 'red'))).toBe(10);

  const without = TEST_INDEXES.map((spec) => (spec.name === COLOR_INDEX ? { ...spec, valueSets: false } : spec));
  await storage.defineType(WIDGETS, without);
  expect(await redis.exists(keys.valueSet(COLOR_INDEX, 'red'), keys.valueSet(COLOR_INDEX, 'blue'))).toBe(0);
  expect(await redis.hget(keys.valueSetStates, COLOR_INDEX)).toBeNull();
  // Written while the index has no value sets: a later fill must not find it under its old value.
  await storage.update(WIDGETS, 'w01', (w) => ({ ...w, spec: { ...(w.spec as object), color: 'blue' } }));
  const red: ListOptions = { fieldSelector: [{ field: COLOR_INDEX, op: 'in', values: ['red'] }] };
  expect((await storage.list(WIDGETS, red)).total).toBe(9);

  await storage.defineType(WIDGETS, TEST_INDEXES);
  await waitFor(async () => (await redis.hget(keys.valueSetStates, COLOR_INDEX)) === 'ready', {
    what: 'value sets filled',
  });
  expect(await redis.zcard(keys.valueSet(COLOR_INDEX, 'red'))).toBe(9);
  expect(await redis.zcard(keys.valueSet(COLOR_INDEX, 'blue'))).toBe(11);
  expect((await storage.list(WIDGETS, { ...red, limit: 2 })).total).toBe(9);
});

it('a non-unique index without value sets keeps none', async () => {
  const keyPrefix = uniqueKeyPrefix('vs');
  const keys = typeKeys(keyPrefix, WIDGETS);
  const storage = await storageAt(keyPrefix);
  await storage.defineType(WIDGETS, TEST_INDEXES);
  await storage.create(WIDGETS, widget('w1', { tags: ['a', 'b'], rank: '01' }));
  expect(await redis.keys(`${keys.valueSetPrefix}${TAGS_INDEX}\0*`)).toEqual([]);
  expect(await redis.keys(`${keys.valueSetPrefix}${RANK_INDEX}\0*`)).toEqual([]);
  expect(await redis.hget(keys.valueSetStates, TAGS_INDEX)).toBeNull();
});
