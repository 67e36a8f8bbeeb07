import { client as rawClient, startTestApiServer } from '../../test/support/apiserver';
import { applyPersonModel, person } from '../../test/support/person';
import type { RunningApiServer } from '../server/app';
import type { ApiObject } from '../api/object';
import { ApiClient } from './api-client';
import { ExpiredError, isExpired } from './errors';
import type { ResourceRef } from './resource';
import type { WatchEvent } from './types';
import type { WatchStream } from './watch-stream';

const PERSONS: ResourceRef = { group: 'example.com', version: 'v1alpha1', plural: 'persons' };

let server: RunningApiServer;
let client: ApiClient;

beforeAll(async () => {
  server = await startTestApiServer({ watchRetention: 20 });
  await applyPersonModel(rawClient(server.url));
  client = new ApiClient({ server: server.url });
});
afterAll(() => server.stop());

/** Reads `count` events from a watch, then stops it. */
async function take(watch: WatchStream, count: number): Promise<WatchEvent[]> {
  const events: WatchEvent[] = [];
  for await (const event of watch) {
    events.push(event);
    if (events.length === count) break;
  }
  return events;
}

const summary = (events: WatchEvent[]) => events.map((e) => `${e.type} ${e.object.metadata.name}`);

describe('ApiClient.watch', () => {
  it('streams every change after the resourceVersion it starts from, in order', async () => {
    const list = await client.list(PERSONS, { labelSelector: 'suite=w-order' });
    const watch = await client.watch(PERSONS, {
      resourceVersion: list.resourceVersion,
      labelSelector: 'suite=w-order',
    });
    await client.create(PERSONS, person('w-a', {}, { suite: 'w-order' }));
    await client.patch(PERSONS, 'w-a', { spec: { age: 5 } });
    await client.delete(PERSONS, 'w-a');
    await client.delete(PERSONS, 'w-a');
    const events = await take(watch, 4);
    expect(summary(events)).toEqual(['ADDED w-a', 'MODIFIED w-a', 'MODIFIED w-a', 'DELETED w-a']);
    expect((events[1].object.spec as { age: number }).age).toBe(5);
    expect(watch.isStopped).toBe(true);
  });

  it('without a resourceVersion starts with an ADDED for every current object', async () => {
    await client.create(PERSONS, person('w-current', {}, { suite: 'w-current' }));
    const watch = await client.watch(PERSONS, { labelSelector: 'suite=w-current' });
    expect(summary(await take(watch, 1))).toEqual(['ADDED w-current']);
  });

  it('ends the iteration when the server ends the watch (timeoutSeconds)', async () => {
    const { resourceVersion } = await client.list(PERSONS, { fieldSelector: 'metadata.name=w-nobody' });
    const watch = await client.watch(PERSONS, {
      fieldSelector: 'metadata.name=w-nobody',
      resourceVersion,
      timeoutSeconds: 1,
    });
    const events: WatchEvent[] = [];
    for await (const event of watch) events.push(event);
    expect(events).toEqual([]);
  });

  it('ends the iteration quietly on stop()', async () => {
    const watch = await client.watch(PERSONS, { fieldSelector: 'metadata.name=w-nobody' });
    const done = (async () => {
      const events: WatchEvent[] = [];
      for await (const event of watch) events.push(event);
      return events;
    })();
    watch.stop();
    await expect(done).resolves.toEqual([]);
  });

  it('throws an ExpiredError for a resourceVersion older than the server keeps', async () => {
    const first = await client.create<ApiObject>(PERSONS, person('w-old'));
    for (let i = 0; i < 30; i++) await client.patch(PERSONS, 'w-old', { spec: { age: i } });
    const watch = await client.watch(PERSONS, { resourceVersion: first.metadata.resourceVersion });
    const err = await take(watch, 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExpiredError);
    expect(isExpired(err)).toBe(true);
    expect((err as ExpiredError).status).toMatchObject({ code: 410, reason: 'Expired' });
  });
});
