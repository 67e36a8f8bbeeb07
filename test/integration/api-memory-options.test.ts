import Redis from 'ioredis';
import { typeKeys } from '../../pkg/storage/redis';
import { PERSONS, person, usePersonsApi } from '../support/person';
import { sharedRedisUrl, uniqueKeyPrefix } from '../support/redis';
import { httpWatch } from '../support/watch-client';

// The apiserver on a Redis store with the options for the least memory (`--store redis://…?indexLayout=bucketed&
// compression=deflate`, ADR 0025 and ADR 0026): what a client sees is what it sees on the defaults.

const keyPrefix = uniqueKeyPrefix('memory');
const suite = usePersonsApi({
  store: `${sharedRedisUrl()}?keyPrefix=${keyPrefix}&indexLayout=bucketed&compression=deflate`,
});
let redis: Redis;

beforeAll(() => {
  redis = new Redis(sharedRedisUrl());
});
afterAll(() => redis.disconnect());

it('creates, reads, lists by label and watches Persons stored compressed under bucketed indexes', async () => {
  const watch = await httpWatch(`${suite.server.url}${PERSONS}?watch=true`);
  try {
    for (let i = 0; i < 150; i++) {
      const labels = { team: i % 3 === 0 ? 'red' : 'blue' };
      const res = await suite.api('POST', PERSONS, person(`p${String(i).padStart(3, '0')}`, { age: i % 90 }, labels));
      expect(res.status).toBe(201);
    }
    const got = await suite.api('GET', `${PERSONS}/p042`);
    expect(got.body).toMatchObject({ metadata: { name: 'p042', labels: { team: 'red' } }, spec: { age: 42 } });

    const page = await suite.api('GET', `${PERSONS}?labelSelector=team%3Dred&sort=metadata.name,desc&page=2&size=10`);
    expect(page.body.total).toBe(50);
    expect(page.body.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual(
      Array.from({ length: 10 }, (_, k) => `p${String(147 - 3 * (10 + k)).padStart(3, '0')}`),
    );

    // Deleting marks the object (no controller-manager runs here to remove it): a MODIFIED event.
    const deleted = await suite.api('DELETE', `${PERSONS}/p042`);
    expect(deleted.status).toBe(200);
    const events = await watch.events.take(151);
    expect(events.at(-1)).toMatchObject({
      type: 'MODIFIED',
      object: { metadata: { name: 'p042' }, spec: { age: 42 } },
    });
  } finally {
    watch.close();
  }

  // Beneath the API: the object is stored deflated, the labels index as a bucketed set.
  const keys = typeKeys(keyPrefix, 'persons.example.com', 'bucketed');
  expect((await redis.hget(keys.objects, 'p001'))?.startsWith('z')).toBe(true);
  expect(await redis.zcard(keys.index('metadata.labels'))).toBeGreaterThan(1);
});
