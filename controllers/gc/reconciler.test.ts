import pino from 'pino';
import type { RunningApiServer } from '../../pkg/server/app';
import type { ApiObject } from '../../pkg/api/object';
import { ApiClient, isConflict, isNotFound, type ResourceRef } from '../../pkg/client';
import { Informer, isTerminalError, type ReconcileContext } from '../../pkg/controller';
import { FakeListerWatcher } from '../../pkg/controller/testing/fake-source';
import { client as rawClient, startTestApiServer } from '../../test/support/apiserver';
import { applyPersonModel, person } from '../../test/support/person';
import { GarbageCollectReconciler } from './reconciler';

// The reconciler's decisions against a real apiserver, reading from a cache
// whose contents each test sets exactly (the runtime's fake source), so that
// a stale cache can be staged.

const PERSONS: ResourceRef = { group: 'example.com', version: 'v1alpha1', plural: 'persons', kind: 'Person' };
const log = pino({ level: process.env.SVC_TEST_LOG_LEVEL ?? 'silent' });
const ctx: ReconcileContext = { signal: new AbortController().signal, log };

let server: RunningApiServer;
let client: ApiClient;
const informers: Informer[] = [];

beforeAll(async () => {
  server = await startTestApiServer();
  await applyPersonModel(rawClient(server.url));
  client = new ApiClient({ server: server.url });
});
afterEach(async () => {
  await Promise.all(informers.splice(0).map((i) => i.stop()));
});
afterAll(() => server.stop());

/** A reconciler whose cache holds exactly `cached`. */
async function reconcilerSeeing(...cached: ApiObject[]): Promise<GarbageCollectReconciler> {
  const informer = new Informer(new FakeListerWatcher(cached), { name: 'persons', log });
  informers.push(informer);
  informer.start();
  await informer.waitForSync();
  return new GarbageCollectReconciler(client, PERSONS, informer.cache);
}

const create = (name: string, finalizers?: string[]) => {
  const object = person(name) as ApiObject;
  if (finalizers) object.metadata.finalizers = finalizers;
  return client.create(PERSONS, object);
};
const mark = async (name: string) => {
  const result = await client.delete(PERSONS, name);
  if (result.removed) throw new Error(`${name} was removed, not marked`);
  return result.object;
};
const exists = async (name: string) => {
  try {
    await client.get(PERSONS, name);
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
};
const failureOf = async (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (err: unknown) => err,
  );

describe('GarbageCollectReconciler', () => {
  it('removes a marked object without finalizers', async () => {
    await create('r-marked');
    const marked = await mark('r-marked');
    await (await reconcilerSeeing(marked)).reconcile({ name: 'r-marked' }, ctx);
    expect(await exists('r-marked')).toBe(false);
  });

  it('sends nothing for an object that is not marked: a DELETE would mark it', async () => {
    const unmarked = await create('r-live');
    await (await reconcilerSeeing(unmarked)).reconcile({ name: 'r-live' }, ctx);
    expect((await client.get(PERSONS, 'r-live')).metadata.deletionTimestamp).toBeUndefined();
  });

  it('sends nothing while its cache shows a finalizer, even when the server has dropped it since', async () => {
    await create('r-held', ['example.com/hold']);
    const held = await mark('r-held');
    // The server moves on; a DELETE held to the cached version would now be a 409.
    await client.patch(PERSONS, 'r-held', { metadata: { finalizers: [] } });
    await expect((await reconcilerSeeing(held)).reconcile({ name: 'r-held' }, ctx)).resolves.toBeUndefined();
    expect(await exists('r-held')).toBe(true);
  });

  it('does nothing for a name its cache does not hold', async () => {
    await create('r-uncached');
    await mark('r-uncached');
    await (await reconcilerSeeing()).reconcile({ name: 'r-uncached' }, ctx);
    expect(await exists('r-uncached')).toBe(true);
  });

  it('never removes an object that changed after the cache saw it: the 409 is thrown, to retry', async () => {
    await create('r-changed');
    const seen = await mark('r-changed');
    await client.patch(PERSONS, 'r-changed', { metadata: { labels: { changed: 'after-the-look' } } });
    const err = await failureOf((await reconcilerSeeing(seen)).reconcile({ name: 'r-changed' }, ctx));
    expect(isConflict(err)).toBe(true);
    expect(await exists('r-changed')).toBe(true);
  });

  it('reports an object removed meanwhile as NotFound, which the runtime counts as done', async () => {
    await create('r-gone');
    const seen = await mark('r-gone');
    await client.delete(PERSONS, 'r-gone');
    const err = await failureOf((await reconcilerSeeing(seen)).reconcile({ name: 'r-gone' }, ctx));
    expect(isNotFound(err)).toBe(true);
  });

  it('refuses, for good, to remove an object without a resourceVersion unconditionally', async () => {
    await create('r-versionless');
    const seen = await mark('r-versionless');
    delete seen.metadata.resourceVersion;
    const err = await failureOf((await reconcilerSeeing(seen)).reconcile({ name: 'r-versionless' }, ctx));
    expect(isTerminalError(err)).toBe(true);
    expect(await exists('r-versionless')).toBe(true);
  });
});
