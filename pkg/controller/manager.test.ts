import pino from 'pino';
import { Registry } from 'prom-client';
import { client as rawClient } from '../../test/support/apiserver';
import { usePersonsApiServer } from '../../test/support/controller-manager';
import { MODELS, person } from '../../test/support/person';
import { waitFor } from '../../test/support/wait-for';
import type { ApiObject } from '../api/object';
import type { ResourceRef } from '../client/resource';
import { controller } from './builder';
import { Manager } from './manager';
import { deletionTimestampSet } from './predicates';
import { reconcilerFn } from './reconciler';
import { updateStatus } from './status';

const PERSONS: ResourceRef = { group: 'example.com', version: 'v1alpha1', plural: 'persons', kind: 'Person' };
const PETS: ResourceRef = { group: 'example.com', version: 'v1alpha1', plural: 'pets', kind: 'Pet' };
const log = pino({ level: process.env.SVC_TEST_LOG_LEVEL ?? 'silent' });

interface Person extends ApiObject {
  spec: { name: string; age: number };
  status?: { phase?: string };
}

const shared = usePersonsApiServer();
const managers: Manager[] = [];

afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.stop()));
});

function newManager(registry?: Registry): Manager {
  const manager = new Manager({ client: shared.client, log, metrics: registry });
  managers.push(manager);
  return manager;
}

const create = (
  name: string,
  labels: Record<string, string>,
  spec: Record<string, unknown> = {},
  extra: object = {},
) => {
  const object = person(name, spec, labels);
  return shared.client.create<ApiObject>(PERSONS, { ...object, metadata: { ...object.metadata, ...extra } });
};

/** Whether a promise has settled, after letting pending callbacks run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await new Promise((r) => setImmediate(r));
  return done;
}

describe('Manager with controllers against a real apiserver', () => {
  it('reconciles existing objects at start and later changes, writing status only when it changes', async () => {
    await create('m-old', { suite: 'm-status' }, { age: 40 });
    const registry = new Registry();
    const manager = newManager(registry);
    const persons = manager.cacheFor<Person>(PERSONS, { labelSelector: 'suite=m-status' });
    let writes = 0;
    controller('person-phase', manager)
      .for(PERSONS, { labelSelector: 'suite=m-status' })
      .workers(2)
      .complete(
        reconcilerFn(async ({ name }) => {
          const found = persons.get(name);
          if (!found) return;
          const result = await updateStatus(shared.client, PERSONS, found, {
            phase: found.spec.age >= 18 ? 'Adult' : 'Minor',
          });
          if (result.changed) writes++;
        }),
      );
    await manager.start();
    expect(manager.isLeader()).toBe(true);
    await waitFor(async () => (await shared.client.get<Person>(PERSONS, 'm-old')).status?.phase === 'Adult', {
      what: 'm-old status',
    });
    await create('m-new', { suite: 'm-status' }, { age: 10 });
    await waitFor(async () => (await shared.client.get<Person>(PERSONS, 'm-new')).status?.phase === 'Minor', {
      what: 'm-new status',
    });
    await shared.client.patch(PERSONS, 'm-new', { spec: { age: 20 } });
    await waitFor(async () => (await shared.client.get<Person>(PERSONS, 'm-new')).status?.phase === 'Adult', {
      what: 'm-new updated',
    });
    // The status can be read before the reconciler has its write's answer back (and counted it).
    await waitFor(() => writes >= 3, { what: 'the third write to be counted' });
    expect(writes).toBe(3);
    expect(await registry.metrics()).toMatch(
      /svc_controller_reconcile_total\{controller="person-phase",result="success"\} [1-9]/,
    );
  });

  it('enqueues only the events its predicates let through', async () => {
    await create('m-pred-a', { suite: 'm-pred' });
    await create('m-pred-b', { suite: 'm-pred' });
    const manager = newManager();
    const calls: string[] = [];
    controller('marked-only', manager)
      .for(PERSONS, { labelSelector: 'suite=m-pred' })
      .withPredicates(deletionTimestampSet)
      .complete(
        reconcilerFn(async ({ name }) => {
          calls.push(name);
        }),
      );
    await manager.start();
    await shared.client.delete(PERSONS, 'm-pred-b');
    await waitFor(() => calls.includes('m-pred-b'), { what: 'the marked object to be reconciled' });
    expect(calls).toEqual(['m-pred-b']);
  });

  it('maps an owned object to its owner through ownerReferences', async () => {
    await create('m-own-parent', { suite: 'm-own' });
    const ownerRef = {
      ownerReferences: [{ apiVersion: 'example.com/v1alpha1', kind: 'Person', name: 'm-own-parent', uid: 'u' }],
    };
    await create('m-own-child', { suite: 'm-own-child' }, {}, ownerRef);
    const manager = newManager();
    const calls: string[] = [];
    controller('owners', manager)
      .for(PERSONS, { labelSelector: 'suite=m-own-nothing' })
      .owns(PERSONS, { labelSelector: 'suite=m-own-child' })
      .complete(
        reconcilerFn(async ({ name }) => {
          calls.push(name);
        }),
      );
    await manager.start();
    await waitFor(() => calls.length === 1, { what: 'the owner reconciled at sync' });
    await shared.client.patch(PERSONS, 'm-own-child', { spec: { age: 3 } });
    await waitFor(() => calls.length === 2, { what: 'the owner reconciled after the child changed' });
    expect(calls).toEqual(['m-own-parent', 'm-own-parent']);
  });

  it('starts controllers and sources added while running, for models registered later, and removes them', async () => {
    const manager = newManager();
    const seen: string[] = [];
    const gc = controller('all-models', manager)
      .for(PERSONS, { labelSelector: 'suite=m-dyn-nothing' })
      .complete(
        reconcilerFn(async ({ name }) => {
          seen.push(name);
        }),
      );
    await manager.start();
    const model = {
      apiVersion: 'apiextensions.svc.run/v1alpha1',
      kind: 'Model',
      metadata: { name: 'pets.example.com' },
      spec: {
        group: 'example.com',
        version: 'v1alpha1',
        names: { kind: 'Pet', singular: 'pet', plural: 'pets' },
        schema: {
          type: 'object',
          properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      },
    };
    const api = rawClient(shared.server.url);
    expect((await api('POST', MODELS, model)).status).toBe(201);
    await waitFor(async () => (await api('GET', '/apis/example.com/v1alpha1/pets')).status === 200, {
      what: 'the pets API',
    });
    await shared.client.create(PETS, {
      apiVersion: 'example.com/v1alpha1',
      kind: 'Pet',
      metadata: { name: 'rex' },
      spec: {},
    });

    gc.watch({ resource: PETS, toKeys: (pet) => [`pets/${pet.metadata.name}`] });
    await waitFor(() => seen.includes('pets/rex'), { what: 'a source added at run time' });

    const petNames: string[] = [];
    const pets = controller('pets', manager)
      .for(PETS)
      .complete(
        reconcilerFn(async ({ name }) => {
          petNames.push(name);
        }),
      );
    await waitFor(() => petNames.includes('rex'), { what: 'a controller added at run time' });
    expect(await manager.remove('pets')).toBe(true);
    expect(manager.has('pets')).toBe(false);
    expect(pets.queue.shuttingDown).toBe(true);
  });

  it('stop() waits for running reconciles, which see their signal abort', async () => {
    await create('m-drain', { suite: 'm-drain' });
    const manager = newManager();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = false;
    let aborted = false;
    let finished = false;
    controller('slow', manager)
      .for(PERSONS, { labelSelector: 'suite=m-drain' })
      .complete(
        reconcilerFn(async (_req, { signal }) => {
          started = true;
          await gate;
          aborted = signal.aborted;
          finished = true;
        }),
      );
    await manager.start();
    await waitFor(() => started, { what: 'the reconcile to start' });
    const stopping = manager.stop();
    expect(await settled(stopping)).toBe(false);
    release();
    await stopping;
    expect(finished).toBe(true);
    expect(aborted).toBe(true);
    await expect(manager.done).resolves.toBeUndefined();
  });

  it('run() runs until its signal aborts, then stops', async () => {
    await create('m-run', { suite: 'm-run' });
    const manager = newManager();
    const calls: string[] = [];
    controller('runner', manager)
      .for(PERSONS, { labelSelector: 'suite=m-run' })
      .complete(
        reconcilerFn(async ({ name }) => {
          calls.push(name);
        }),
      );
    const abort = new AbortController();
    const running = manager.run(abort.signal);
    await waitFor(() => calls.includes('m-run'), { what: 'the controller to run' });
    expect(await settled(running)).toBe(false);
    abort.abort();
    await expect(running).resolves.toBeUndefined();
    expect(manager.isLeader()).toBe(false);
  });

  it('refuses a second runnable of the same name', () => {
    const manager = newManager();
    const first = controller('twice', manager)
      .for(PERSONS)
      .complete(reconcilerFn(async () => undefined));
    expect(() => manager.add(first)).toThrow('already has a runnable named "twice"');
  });
});
