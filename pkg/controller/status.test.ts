import { client as rawClient, startTestApiServer } from '../../test/support/apiserver';
import { applyPersonModel, person } from '../../test/support/person';
import type { RunningApiServer } from '../server/app';
import type { ApiObject } from '../api/object';
import { ApiClient } from '../client/api-client';
import { isConflict } from '../client/errors';
import type { ResourceRef } from '../client/resource';
import { deepFreeze } from '../util/deep-freeze';
import { updateStatus } from './status';

const PERSONS: ResourceRef = { group: 'example.com', version: 'v1alpha1', plural: 'persons' };

let server: RunningApiServer;
let client: ApiClient;

beforeAll(async () => {
  server = await startTestApiServer();
  await applyPersonModel(rawClient(server.url));
  client = new ApiClient({ server: server.url });
});
afterAll(() => server.stop());

describe('updateStatus', () => {
  it('writes a changed status through the status subresource, without touching the object given', async () => {
    const created = deepFreeze(await client.create<ApiObject>(PERSONS, person('s-write')));
    const { changed, object } = await updateStatus(client, PERSONS, created, { phase: 'Ready' });
    expect(changed).toBe(true);
    expect(object.status).toEqual({ phase: 'Ready' });
    expect(object.metadata.version).toBe(2);
    expect(created.status).toBeUndefined();
    expect((await client.get(PERSONS, 's-write')).status).toEqual({ phase: 'Ready' });
  });

  it('writes nothing when the status is already the one asked for', async () => {
    const created = await client.create<ApiObject>(PERSONS, person('s-same'));
    const { object: written } = await updateStatus(client, PERSONS, created, { phase: 'Ready', message: 'ok' });
    const again = await updateStatus(client, PERSONS, written, { message: 'ok', phase: 'Ready' });
    expect(again.changed).toBe(false);
    expect((await client.get(PERSONS, 's-same')).metadata.version).toBe(written.metadata.version);
  });

  it('fails with Conflict when the object changed since it was read', async () => {
    const created = await client.create<ApiObject>(PERSONS, person('s-stale'));
    await client.patch(PERSONS, 's-stale', { spec: { age: 44 } });
    const err = await updateStatus(client, PERSONS, created, { phase: 'Ready' }).catch((e: unknown) => e);
    expect(isConflict(err)).toBe(true);
  });
});
