import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import type { ApiObject } from '../../pkg/api/object';
import { openStorage, type Storage } from '../../pkg/storage';
import { modelFromObject } from '../../pkg/registry/models/model-object';
import { sharedRedisUrl, uniqueKeyPrefix } from '../../test/support/redis';
import { BaselineStore } from './baseline-store';
import { indexesOfModelFile } from './model-indexes';
import { PERSONS_TYPE, personBody } from './persons';

const MODEL_FILE = join(__dirname, '../../manifests/examples/person-model.yaml');

/**
 * The baseline must do the backend's work and no less: what it writes is
 * what the Redis storage reads, lists by its indexes and reports in watch.
 */
describe('BaselineStore writes what the Redis storage writes', () => {
  let storage: Storage;
  let baseline: BaselineStore;

  beforeEach(async () => {
    const keyPrefix = uniqueKeyPrefix('bench');
    const url = sharedRedisUrl();
    storage = await openStorage(`${url}${url.includes('?') ? '&' : '?'}keyPrefix=${keyPrefix}`);
    // As the apiserver defines the type when the Model is applied.
    const model = modelFromObject(load(readFileSync(MODEL_FILE, 'utf8')) as ApiObject);
    await storage.defineType(PERSONS_TYPE, model.indexes ?? []);
    baseline = await BaselineStore.open({
      redisUrl: url.split('?')[0],
      keyPrefix,
      type: PERSONS_TYPE,
      indexes: indexesOfModelFile(MODEL_FILE),
      watchRetention: 1000,
    });
  });

  afterEach(async () => {
    await baseline.close();
    await storage.close();
  });

  const person = (name: string, seed: number) => JSON.parse(personBody(name, seed)) as ApiObject;

  it('creates an object the storage reads back with its revision, and finds by its indexes', async () => {
    const outcome = await baseline.create(person('ada', 3));
    expect(outcome.created).toBe(true);
    const stored = await storage.get(PERSONS_TYPE, 'ada');
    expect(outcome.created && outcome.object).toEqual(stored);
    expect(stored.metadata).toMatchObject({
      version: 1,
      generation: 1,
      resourceVersion: await storage.currentRevision(PERSONS_TYPE),
    });
    const byName = await storage.list(PERSONS_TYPE, {
      fieldSelector: [{ field: 'spec.name', op: 'in', values: ['Person number 3'] }],
    });
    expect(byName.items.map((o) => o.metadata.name)).toEqual(['ada']);
    const byTag = await storage.list(PERSONS_TYPE, {
      fieldSelector: [{ field: 'spec.tags', op: 'in', values: ['chess'] }],
    });
    expect(byTag.items.map((o) => o.metadata.name)).toEqual(['ada']);
  });

  it('appends the create to the change stream the storage watches', async () => {
    const watcher = storage.watch(PERSONS_TYPE, { fromRevision: await storage.currentRevision(PERSONS_TYPE) });
    try {
      await baseline.create(person('ada', 1));
      const { value } = await watcher[Symbol.asyncIterator]().next();
      expect(value).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'ada' } } });
    } finally {
      watcher.stop();
    }
  });

  it('refuses a name that is taken, as the storage does', async () => {
    await storage.create(PERSONS_TYPE, person('ada', 1));
    expect(await baseline.create(person('ada', 2))).toEqual({ created: false });
  });

  it('serves the stored JSON as is, and the newest objects first in a page', async () => {
    for (const name of ['a', 'b', 'c']) await storage.create(PERSONS_TYPE, person(name, 1));
    expect(JSON.parse((await baseline.objectJson('b')) ?? 'null')).toEqual(await storage.get(PERSONS_TYPE, 'b'));
    expect(await baseline.objectJson('nobody')).toBeNull();
    const page = JSON.parse(await baseline.pageJson('example.com/v1alpha1', 'PersonList', 2)) as { items: ApiObject[] };
    const newest = await storage.list(PERSONS_TYPE, { limit: 3 });
    expect(page.items).toHaveLength(2);
    expect(newest.items.map((o) => o.metadata.name)).toEqual(
      expect.arrayContaining(page.items.map((o) => o.metadata.name)),
    );
  });
});
