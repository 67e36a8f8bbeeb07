import type { ApiObject } from '../../pkg/api/object';
import { isNotFound, type ResourceRef } from '../../pkg/client';
import { startTestControllerManager, usePersonsApiServer } from '../support/controller-manager';
import { person, PERSON_RES, PERSONS } from '../support/person';
import { waitFor } from '../support/wait-for';
import { httpWatch } from '../support/watch-client';
import { client as rawClient } from '../support/apiserver';

// The gc controller as the controller-manager runs it (in this process),
// against a real apiserver on Redis. Each test starts a controller-manager of
// its own (stopped after it) and uses names no other test uses.

const shared = usePersonsApiServer();

const create = (res: ResourceRef, object: ApiObject) => shared.client.create(res, object);
const createPerson = (name: string, finalizers?: string[]) => {
  const object = person(name) as ApiObject;
  if (finalizers) object.metadata.finalizers = finalizers;
  return create(PERSON_RES, object);
};
const mark = async (res: ResourceRef, name: string) => {
  const result = await shared.client.delete(res, name);
  if (result.removed) throw new Error(`${name} was removed at once; expected it to be marked`);
  return result.object;
};
const gone = async (res: ResourceRef, name: string) => {
  try {
    await shared.client.get(res, name);
    return false;
  } catch (err) {
    if (isNotFound(err)) return true;
    throw err;
  }
};
const waitGone = (res: ResourceRef, name: string) => waitFor(() => gone(res, name), { what: `${name} to be removed` });

const MODEL_RES: ResourceRef = { group: 'apiextensions.svc.run', version: 'v1alpha1', plural: 'models', kind: 'Model' };

/** A small Model of `<plural>` in group `<plural>.example.org`, registered by a test after the controller-manager started. */
const animalModel = (kind: string, plural: string) => ({
  apiVersion: 'apiextensions.svc.run/v1alpha1',
  kind: 'Model',
  metadata: { name: `${plural}.${plural}.example.org` },
  spec: {
    group: `${plural}.example.org`,
    version: 'v1',
    names: { kind, plural },
    schema: { type: 'object', properties: { spec: { type: 'object', properties: { species: { type: 'string' } } } } },
  },
});
const animalRes = (kind: string, plural: string): ResourceRef => ({
  group: `${plural}.example.org`,
  version: 'v1',
  plural,
  kind,
});
const animal = (res: ResourceRef, name: string): ApiObject => ({
  apiVersion: `${res.group}/${res.version}`,
  kind: res.kind!,
  metadata: { name },
  spec: { species: 'cat' },
});

/** Registers a Model and waits until its API answers. */
async function registerAnimalModel(kind: string, plural: string): Promise<ResourceRef> {
  await create(MODEL_RES, animalModel(kind, plural));
  const path = `/apis/${plural}.example.org/v1/${plural}`;
  await waitFor(async () => (await rawClient(shared.server.url)('GET', path)).status === 200, {
    what: `${plural} to be served`,
  });
  return animalRes(kind, plural);
}

describe('the gc controller', () => {
  it('removes an object once it is marked: the watch shows MODIFIED (marked), then DELETED', async () => {
    await startTestControllerManager(shared.server.url);
    // Once a first object is collected, the gc's own watch of persons is live. Opening the test's
    // watch before that can meet a spurious 410 from the Redis stream reader (reported to the lead).
    await createPerson('warm-up');
    await mark(PERSON_RES, 'warm-up');
    await waitGone(PERSON_RES, 'warm-up');
    const created = await createPerson('ada');
    const watch = await httpWatch(
      `${shared.server.url}${PERSONS}?watch=true&resourceVersion=${created.metadata.resourceVersion}`,
    );
    try {
      await mark(PERSON_RES, 'ada');
      const [marked, removed] = await watch.events.take(2, 10_000);
      expect(marked.type).toBe('MODIFIED');
      expect(marked.object.metadata.deletionTimestamp).toBeDefined();
      expect(removed.type).toBe('DELETED');
      expect(removed.object.metadata.name).toBe('ada');
      expect(await gone(PERSON_RES, 'ada')).toBe(true);
    } finally {
      watch.close();
    }
  });

  it('keeps an object with a finalizer until the last finalizer is removed, then removes it', async () => {
    await startTestControllerManager(shared.server.url);
    await createPerson('held', ['example.com/a', 'example.com/b']);
    await createPerson('sentinel');
    await mark(PERSON_RES, 'held');
    await mark(PERSON_RES, 'sentinel');
    // The sentinel was marked after `held`, so once it is gone the gc has seen `held` marked too.
    await waitGone(PERSON_RES, 'sentinel');
    expect(await gone(PERSON_RES, 'held')).toBe(false);

    await shared.client.patch(PERSON_RES, 'held', { metadata: { finalizers: ['example.com/b'] } });
    await createPerson('sentinel-2');
    await mark(PERSON_RES, 'sentinel-2');
    await waitGone(PERSON_RES, 'sentinel-2');
    expect(await gone(PERSON_RES, 'held')).toBe(false);

    await shared.client.patch(PERSON_RES, 'held', { metadata: { finalizers: [] } });
    await waitGone(PERSON_RES, 'held');
  });

  it('collects at start-up the objects marked while no controller-manager ran', async () => {
    for (const name of ['early-1', 'early-2', 'early-3']) {
      await createPerson(name);
      await mark(PERSON_RES, name);
    }
    await createPerson('unmarked');
    await startTestControllerManager(shared.server.url);
    await Promise.all(['early-1', 'early-2', 'early-3'].map((name) => waitGone(PERSON_RES, name)));
    expect(await gone(PERSON_RES, 'unmarked')).toBe(false);
  });

  it('collects the objects of a model registered after it started', async () => {
    const cm = await startTestControllerManager(shared.server.url);
    await waitFor(() => cm.manager.has('gc/models.apiextensions.svc.run'), { what: 'the gc to start' });
    expect(cm.manager.has('gc/pets.pets.example.org')).toBe(false);
    const pets = await registerAnimalModel('Pet', 'pets');
    await create(pets, animal(pets, 'tom'));
    await mark(pets, 'tom');
    await waitGone(pets, 'tom');
    expect(cm.manager.has('gc/pets.pets.example.org')).toBe(true);
  });

  it('stops collecting a model once it is marked, and collects the Model object itself', async () => {
    const cm = await startTestControllerManager(shared.server.url);
    await registerAnimalModel('Bird', 'birds');
    await waitFor(() => cm.manager.has('gc/birds.birds.example.org'), { what: 'the gc to collect birds' });
    await mark(MODEL_RES, 'birds.birds.example.org');
    await waitFor(() => !cm.manager.has('gc/birds.birds.example.org'), { what: 'the gc to stop collecting birds' });
    await waitGone(MODEL_RES, 'birds.birds.example.org');
  });

  it('collects Leases too: every platform kind the apiserver serves', async () => {
    const leases: ResourceRef = { group: 'coordination.svc.run', version: 'v1alpha1', plural: 'leases', kind: 'Lease' };
    await startTestControllerManager(shared.server.url, { leaderElection: false });
    await create(leases, {
      apiVersion: 'coordination.svc.run/v1alpha1',
      kind: 'Lease',
      metadata: { name: 'old-lock' },
      spec: {},
    });
    await mark(leases, 'old-lock');
    await waitGone(leases, 'old-lock');
  });
});
