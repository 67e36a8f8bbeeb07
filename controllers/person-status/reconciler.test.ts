import pino from 'pino';
import type { RunningApiServer } from '../../pkg/server/app';
import { ApiClient } from '../../pkg/client/api-client';
import { isConflict } from '../../pkg/client/errors';
import type { ReadonlyCache } from '../../pkg/controller/cache';
import { deepFreeze, type DeepReadonly } from '../../pkg/util/deep-freeze';
import type { ReconcileContext } from '../../pkg/controller/reconciler';
import { client as rawClient, startTestApiServer } from '../../test/support/apiserver';
import { applyPersonModel, person } from '../../test/support/person';
import { PERSONS, type Person } from './person';
import { PERSON_STATUS_FINALIZER, PersonStatusReconciler, type CleanUp } from './reconciler';

// The reconciler called directly against a real apiserver, with a cache that
// holds exactly the (frozen) objects a test gives it: each write is checked.

let server: RunningApiServer;
let client: ApiClient;
const ctx: ReconcileContext = { signal: new AbortController().signal, log: pino({ level: 'silent' }) };

beforeAll(async () => {
  server = await startTestApiServer();
  await applyPersonModel(rawClient(server.url));
  client = new ApiClient({ server: server.url });
});
afterAll(() => server.stop());

/** A cache holding frozen copies of the objects given, as an informer's would. */
function cacheOf(...objects: Person[]): ReadonlyCache<Person> {
  const byName = new Map(objects.map((o) => [o.metadata.name!, deepFreeze(structuredClone(o))]));
  return {
    get: (name) => byName.get(name),
    list: () => [...byName.values()],
    size: () => byName.size,
  };
}

const create = (name: string, spec: Record<string, unknown>, finalizers?: string[]) => {
  const object = person(name, spec) as Person;
  if (finalizers) object.metadata.finalizers = finalizers;
  return client.create<Person>(PERSONS, object);
};
const get = (name: string) => client.get<Person>(PERSONS, name);

/** Reconciles `name` once, with the cache holding the Person as the server has it now. */
async function reconcileFresh(name: string, cleanUp?: CleanUp): Promise<void> {
  await new PersonStatusReconciler(client, cacheOf(await get(name)), cleanUp).reconcile({ name }, ctx);
}

describe('PersonStatusReconciler', () => {
  it('adds its finalizer and writes the status of a new Person, leaving the cached object as it was', async () => {
    const created = await create('r-new', { age: 36, tags: ['math', 'poetry'] });
    const cache = cacheOf(created);
    await new PersonStatusReconciler(client, cache).reconcile({ name: 'r-new' }, ctx);

    const stored = await get('r-new');
    expect(stored.metadata.finalizers).toEqual([PERSON_STATUS_FINALIZER]);
    expect(stored.status).toEqual({ phase: 'Adult', message: '2 tags' });
    const cached = cache.get('r-new')!;
    expect(cached.metadata.finalizers).toBeUndefined();
    expect(cached.status).toBeUndefined();
  });

  it('writes nothing once the Person is converged', async () => {
    await create('r-converged', { age: 9 });
    await reconcileFresh('r-converged');
    const converged = await get('r-converged');
    expect(converged.status).toEqual({ phase: 'Minor', message: 'no tags' });

    await reconcileFresh('r-converged');
    expect((await get('r-converged')).metadata.resourceVersion).toBe(converged.metadata.resourceVersion);
  });

  it('follows a changed spec', async () => {
    await create('r-change', { age: 17, tags: ['a'] });
    await reconcileFresh('r-change');
    await client.patch(PERSONS, 'r-change', { spec: { age: 18, tags: ['a', 'b', 'c'] } });
    await reconcileFresh('r-change');
    expect((await get('r-change')).status).toEqual({ phase: 'Adult', message: '3 tags' });
  });

  it('is done when the Person is not in the cache (it was removed)', async () => {
    await expect(
      new PersonStatusReconciler(client, cacheOf()).reconcile({ name: 'r-gone' }, ctx),
    ).resolves.toBeUndefined();
  });

  it('fails with Conflict, writing nothing, when its cache is behind the server', async () => {
    const stale = await create('r-stale', { age: 40 });
    await client.patch(PERSONS, 'r-stale', { metadata: { labels: { moved: 'on' } } });
    const reconciling = new PersonStatusReconciler(client, cacheOf(stale)).reconcile({ name: 'r-stale' }, ctx);
    await expect(reconciling.catch((err: unknown) => isConflict(err))).resolves.toBe(true);
    const stored = await get('r-stale');
    expect(stored.metadata.finalizers).toBeUndefined();
    expect(stored.status).toBeUndefined();
  });

  it('on a marked Person, cleans up, then removes its finalizer; a DELETE then removes the Person', async () => {
    await create('r-marked', { age: 50 });
    await reconcileFresh('r-marked');
    const marking = await client.delete<Person>(PERSONS, 'r-marked');
    expect(marking.removed).toBe(false); // our finalizer holds it

    const cleaned: string[] = [];
    await reconcileFresh('r-marked', async (p) => {
      cleaned.push(p.metadata.name!);
      expect(p.metadata.finalizers).toContain(PERSON_STATUS_FINALIZER); // cleanup runs before the finalizer goes
    });
    expect(cleaned).toEqual(['r-marked']);
    const finalized = await get('r-marked');
    expect(finalized.metadata.deletionTimestamp).toBeDefined();
    expect(finalized.metadata.finalizers ?? []).toEqual([]);
    expect((await client.delete(PERSONS, 'r-marked')).removed).toBe(true);
  });

  it('keeps its finalizer when the cleanup fails, so that the cleanup is retried', async () => {
    await create('r-cleanup-fails', { age: 50 });
    await reconcileFresh('r-cleanup-fails');
    await client.delete(PERSONS, 'r-cleanup-fails');
    const failing: CleanUp = async () => {
      throw new Error('the bucket is busy');
    };
    await expect(reconcileFresh('r-cleanup-fails', failing)).rejects.toThrow('the bucket is busy');
    expect((await get('r-cleanup-fails')).metadata.finalizers).toEqual([PERSON_STATUS_FINALIZER]);
  });

  it('leaves a marked Person that does not carry its finalizer alone', async () => {
    await create('r-not-ours', { age: 50 }, ['example.org/other']);
    await client.delete(PERSONS, 'r-not-ours');
    const marked = await get('r-not-ours');
    const cleaned: DeepReadonly<Person>[] = [];
    await reconcileFresh('r-not-ours', async (p) => {
      cleaned.push(p);
    });
    expect(cleaned).toEqual([]);
    const after = await get('r-not-ours');
    expect(after.metadata.resourceVersion).toBe(marked.metadata.resourceVersion);
    expect(after.status).toBeUndefined(); // no status is written for a Person on its way out
  });
});
