import { client as rawClient, startTestApiServer, TEST_ADMIN_PASSWORD } from '../../test/support/apiserver';
import { applyPersonModel, person } from '../../test/support/person';
import { freePort } from '../util/free-port';
import type { RunningApiServer } from '../server/app';
import type { ApiObject } from '../api/object';
import { ApiClient } from './api-client';
import { ApiError, isAlreadyExists, isConflict, isNetworkError, isNotFound, NetworkError } from './errors';
import type { ResourceRef } from './resource';

const PERSONS: ResourceRef = { group: 'example.com', version: 'v1alpha1', plural: 'persons' };

interface Person extends ApiObject {
  spec: { name: string; age: number; tags?: string[] };
  status?: { phase?: string };
}

let server: RunningApiServer;
let client: ApiClient;

beforeAll(async () => {
  server = await startTestApiServer();
  await applyPersonModel(rawClient(server.url));
  client = new ApiClient({ server: `${server.url}/`, userAgent: 'svc-client-test' });
});
afterAll(() => server.stop());

describe('ApiClient reads and writes', () => {
  it('creates an object and reads it back', async () => {
    const created = await client.create<Person>(PERSONS, person('c-ada', { age: 36 }) as Person);
    expect(created.metadata).toMatchObject({ name: 'c-ada', version: 1 });
    const read = await client.get<Person>(PERSONS, 'c-ada');
    expect(read.spec.age).toBe(36);
    expect(read.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });

  it('reports a missing object as NotFound with the server Status', async () => {
    const err = await client.get(PERSONS, 'c-missing').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(isNotFound(err)).toBe(true);
    expect(isConflict(err)).toBe(false);
    expect((err as ApiError).status).toMatchObject({ kind: 'Status', code: 404, reason: 'NotFound' });
    expect((err as ApiError).message).toContain('c-missing');
  });

  it('reports a taken name as AlreadyExists', async () => {
    await client.create(PERSONS, person('c-twice'));
    const err = await client.create(PERSONS, person('c-twice')).catch((e: unknown) => e);
    expect(isAlreadyExists(err)).toBe(true);
    expect(isConflict(err)).toBe(false);
  });

  it('updates with optimistic locking: a stale resourceVersion is a Conflict', async () => {
    const created = await client.create<Person>(PERSONS, person('c-update') as Person);
    const updated = await client.update<Person>(PERSONS, { ...created, spec: { ...created.spec, age: 40 } });
    expect(updated.spec.age).toBe(40);
    expect(updated.metadata.version).toBe(2);
    const err = await client
      .update(PERSONS, { ...created, spec: { ...created.spec, age: 41 } })
      .catch((e: unknown) => e);
    expect(isConflict(err)).toBe(true);
  });

  it('writes status through the status subresource only', async () => {
    const created = await client.create<Person>(PERSONS, person('c-status') as Person);
    const written = await client.updateStatus<Person>(PERSONS, {
      ...created,
      spec: { ...created.spec, age: 99 },
      status: { phase: 'Ready' },
    });
    expect(written.status).toEqual({ phase: 'Ready' });
    expect(written.spec.age).toBe(30);
  });

  it('patches with a merge patch by default and with a JSON patch when asked', async () => {
    await client.create(PERSONS, person('c-patch'));
    const merged = await client.patch<Person>(PERSONS, 'c-patch', { spec: { age: 12 } });
    expect(merged.spec.age).toBe(12);
    const patched = await client.patch<Person>(
      PERSONS,
      'c-patch',
      [{ op: 'replace', path: '/spec/age', value: 13 }],
      'json',
    );
    expect(patched.spec.age).toBe(13);
  });

  it('lists with a label selector, sort and limit/continue paging', async () => {
    for (const name of ['c-list-b', 'c-list-a', 'c-list-c'])
      await client.create(PERSONS, person(name, {}, { suite: 'c-list' }));
    await client.create(PERSONS, person('c-list-other', {}, { suite: 'other' }));
    const all = await client.list(PERSONS, { labelSelector: 'suite=c-list', sort: ['metadata.name,asc'] });
    expect(all.items.map((p) => p.metadata.name)).toEqual(['c-list-a', 'c-list-b', 'c-list-c']);
    expect(Number(all.resourceVersion)).toBeGreaterThan(0);
    const first = await client.list(PERSONS, { labelSelector: 'suite=c-list', sort: ['metadata.name,asc'], limit: 2 });
    expect(first.items.map((p) => p.metadata.name)).toEqual(['c-list-a', 'c-list-b']);
    expect(first.continue).toBeDefined();
    const second = await client.list(PERSONS, {
      labelSelector: 'suite=c-list',
      sort: ['metadata.name,asc'],
      limit: 2,
      continue: first.continue,
    });
    expect(second.items.map((p) => p.metadata.name)).toEqual(['c-list-c']);
    expect(second.continue).toBeUndefined();
  });

  it('lists with a field selector on an index', async () => {
    await client.create(PERSONS, person('c-field'));
    const found = await client.list(PERSONS, { fieldSelector: 'metadata.name=c-field' });
    expect(found.items.map((p) => p.metadata.name)).toEqual(['c-field']);
  });
});

describe('ApiClient delete (two-step)', () => {
  it('marks first, then removes a marked object without finalizers', async () => {
    await client.create(PERSONS, person('c-delete'));
    const marked = await client.delete(PERSONS, 'c-delete');
    expect(marked.removed).toBe(false);
    expect(marked.object?.metadata.deletionTimestamp).toBeDefined();
    const removed = await client.delete(PERSONS, 'c-delete');
    expect(removed.removed).toBe(true);
    expect(removed.status).toMatchObject({ status: 'Success', details: { name: 'c-delete' } });
    expect(isNotFound(await client.get(PERSONS, 'c-delete').catch((e: unknown) => e))).toBe(true);
  });

  it('refuses a removal whose resourceVersion precondition is stale (Conflict) and honours a fresh one', async () => {
    await client.create(PERSONS, person('c-precondition'));
    const marked = await client.delete(PERSONS, 'c-precondition');
    const stale = marked.object!.metadata.resourceVersion!;
    const changed = await client.patch(PERSONS, 'c-precondition', { metadata: { labels: { touched: 'yes' } } });
    const err = await client
      .delete(PERSONS, 'c-precondition', { preconditions: { resourceVersion: stale } })
      .catch((e: unknown) => e);
    expect(isConflict(err)).toBe(true);
    const removed = await client.delete(PERSONS, 'c-precondition', {
      preconditions: { resourceVersion: changed.metadata.resourceVersion },
    });
    expect(removed.removed).toBe(true);
  });
});

describe('ApiClient failures without an answer', () => {
  it('reports a refused connection as a retryable NetworkError', async () => {
    const nowhere = new ApiClient({ server: `http://127.0.0.1:${await freePort()}` });
    const err = await nowhere.get(PERSONS, 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect(isNetworkError(err)).toBe(true);
    expect((err as NetworkError).retryable).toBe(true);
    expect(isNotFound(err)).toBe(false);
  });

  it('rethrows the caller abort reason rather than a NetworkError', async () => {
    const abort = new AbortController();
    abort.abort(new Error('caller gave up'));
    const err = await client.get(PERSONS, 'c-ada', { signal: abort.signal }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('caller gave up');
  });
});

describe('ApiClient discovery', () => {
  it('finds the registered models and the Model kind, without subresources', async () => {
    const resources = await client.discover();
    expect(resources).toContainEqual(
      expect.objectContaining({
        group: 'example.com',
        version: 'v1alpha1',
        plural: 'persons',
        kind: 'Person',
        singular: 'person',
        shortNames: ['ps'],
        preferred: true,
      }),
    );
    expect(resources.some((r) => r.group === 'apiextensions.svc.run' && r.plural === 'models')).toBe(true);
    expect(resources.some((r) => r.plural.includes('/'))).toBe(false);
  });
});

describe('ApiClient.request', () => {
  it('asks with the Accept given (a Table) and answers the parsed body', async () => {
    await client.create(PERSONS, person('c-table'));
    const table = await client.request<{ kind: string; columnDefinitions: { name: string }[] }>({
      method: 'GET',
      path: '/apis/example.com/v1alpha1/persons/c-table',
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    expect(table.kind).toBe('Table');
    expect(table.columnDefinitions[0]?.name).toBe('Name');
  });

  it('sends Basic credentials when there is no token', async () => {
    const rbac = await startTestApiServer({ authorizationMode: 'RBAC' });
    try {
      const wrong = new ApiClient({ server: rbac.url, basicAuth: { username: 'admin', password: 'wrong' } });
      expect(await wrong.request({ method: 'GET', path: '/api/v1alpha1/users' }).catch((e: ApiError) => e.code)).toBe(
        401,
      );
      const right = new ApiClient({
        server: rbac.url,
        basicAuth: { username: 'admin', password: TEST_ADMIN_PASSWORD },
      });
      expect(await right.request<{ items: unknown[] }>({ method: 'GET', path: '/api/v1alpha1/users' })).toHaveProperty(
        'items',
      );
    } finally {
      await rbac.stop();
    }
  });
});

describe('ApiClient warnings', () => {
  it("hands each of the server's Warning headers to onWarning (none under fieldValidation=Ignore)", async () => {
    const warnings: string[] = [];
    const warned = new ApiClient({ server: server.url, onWarning: (text) => warnings.push(text) });
    const typo = { ...person('c-typo'), spec: { nmae: 'x', agee: 3, name: 'X', age: 1 } };
    await warned.create(PERSONS, typo);
    expect(warnings).toEqual(['unknown field "spec.nmae"', 'unknown field "spec.agee"']);
    warnings.length = 0;
    await warned.create(PERSONS, { ...typo, metadata: { name: 'c-typo-2' } }, { fieldValidation: 'Ignore' });
    expect(warnings).toEqual([]);
  });
});
