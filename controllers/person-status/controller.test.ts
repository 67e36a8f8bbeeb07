import pino from 'pino';
import { isNotFound } from '../../pkg/client/errors';
import { Manager } from '../../pkg/controller';
import { usePersonsApiServer } from '../../test/support/controller-manager';
import { person } from '../../test/support/person';
import { waitFor } from '../../test/support/wait-for';
import {
  PERSON_STATUS_CONTROLLER,
  PERSON_STATUS_FINALIZER,
  PERSONS,
  register,
  type CleanUp,
  type Person,
} from './index';

// The controller as the controller-manager runs it: registered on a Manager,
// fed by a real watch of a real apiserver on Redis.

const log = pino({ level: process.env.SVC_TEST_LOG_LEVEL ?? 'silent' });
const shared = usePersonsApiServer();
const managers: Manager[] = [];

afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.stop()));
});

async function startController(cleanUp?: CleanUp): Promise<Manager> {
  const manager = new Manager({ client: shared.client, log });
  managers.push(manager);
  register(manager, shared.client, { cleanUp });
  await manager.start();
  return manager;
}

const create = (name: string, spec: Record<string, unknown>) =>
  shared.client.create<Person>(PERSONS, person(name, spec) as Person);
const get = (name: string) => shared.client.get<Person>(PERSONS, name);
const finalizersOf = async (name: string) => (await get(name)).metadata.finalizers ?? [];

describe('the person-status controller', () => {
  it('writes the status of Persons old and new, follows their spec, and lets them go when deleted', async () => {
    await create('c-before', { age: 70, tags: ['chess'] });
    const manager = await startController();
    expect(manager.names()).toEqual([PERSON_STATUS_CONTROLLER]); // the name --controllers selects it by
    await waitFor(async () => (await get('c-before')).status?.phase === 'Adult', {
      what: 'the status of a Person created before start',
    });
    expect((await get('c-before')).status).toEqual({ phase: 'Adult', message: '1 tag' });

    await create('c-ada', { age: 36, tags: ['math', 'poetry'] });
    const first = await waitFor(
      async () => {
        const ada = await get('c-ada');
        return ada.status?.phase === 'Adult' ? ada : undefined;
      },
      { what: 'the status of a new Person' },
    );
    expect(first.status?.message).toBe('2 tags');
    expect(first.metadata.finalizers).toEqual([PERSON_STATUS_FINALIZER]);

    await shared.client.patch(PERSONS, 'c-ada', { spec: { age: 12 } });
    await waitFor(async () => (await get('c-ada')).status?.phase === 'Minor', { what: 'the status to follow the age' });
    await shared.client.patch(PERSONS, 'c-ada', { spec: { tags: [] } });
    await waitFor(async () => (await get('c-ada')).status?.message === 'no tags', {
      what: 'the status to follow the tags',
    });

    expect((await shared.client.delete(PERSONS, 'c-ada')).removed).toBe(false);
    await waitFor(async () => (await finalizersOf('c-ada')).length === 0, { what: 'the finalizer to be removed' });
    // What the gc controller does next in production: a DELETE of a marked Person without finalizers removes it.
    expect((await shared.client.delete(PERSONS, 'c-ada')).removed).toBe(true);
    await expect(get('c-ada').catch((err: unknown) => isNotFound(err))).resolves.toBe(true);
  });

  it('retries a failing cleanup with backoff and removes the finalizer only once it succeeds', async () => {
    let failing = true;
    let attempts = 0;
    await startController(async () => {
      attempts++;
      if (failing) throw new Error('the bucket is busy');
    });
    await create('c-busy', { age: 5 });
    await waitFor(async () => (await finalizersOf('c-busy')).includes(PERSON_STATUS_FINALIZER), {
      what: 'the finalizer',
    });
    await shared.client.delete(PERSONS, 'c-busy');

    await waitFor(() => attempts >= 2, { what: 'the failed cleanup to be retried' });
    expect(await finalizersOf('c-busy')).toEqual([PERSON_STATUS_FINALIZER]);
    failing = false;
    await waitFor(async () => (await finalizersOf('c-busy')).length === 0, { what: 'the finalizer to be removed' });
  });
});
