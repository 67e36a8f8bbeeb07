import pino from 'pino';
import type { RunningApiServer } from '../../pkg/server/app';
import type { ApiObject } from '../../pkg/api/object';
import { USER_CLEANUP_FINALIZER } from '../../pkg/auth/user-finalizer';
import { ApiClient, type ResourceRef, type WriteOptions } from '../../pkg/client';
import { Informer, type ReconcileContext } from '../../pkg/controller';
import { FakeListerWatcher } from '../../pkg/controller/testing/fake-source';
import { CREDENTIALS_TYPE, passwordCredentialName } from '../../pkg/registry/security/credentials';
import { storageTypeOf } from '../../pkg/registry/model';
import { USER_KIND } from '../../pkg/registry/security/user-kind';
import { client as rawClient, startTestApiServer } from '../../test/support/apiserver';
import { basic, createToken, expectStatus } from '../../test/support/security';
import { UserCleanupReconciler } from './reconciler';
import { ROLE_BINDINGS, TOKENS, USERS } from './resources';

// The reconciler's steps against a real apiserver, reading users from a cache whose contents each test sets
// exactly, so that a run cut short and a stale cache can be staged.

const log = pino({ level: process.env.SVC_TEST_LOG_LEVEL ?? 'silent' });
const ctx: ReconcileContext = { signal: new AbortController().signal, log };

let server: RunningApiServer;
let client: ApiClient;
let raw: ReturnType<typeof rawClient>;
const informers: Informer[] = [];

beforeAll(async () => {
  server = await startTestApiServer();
  client = new ApiClient({ server: server.url });
  raw = rawClient(server.url);
});
afterEach(async () => {
  await Promise.all(informers.splice(0).map((i) => i.stop()));
});
afterAll(() => server.stop());

/** A client that dies (throws) on every write to role bindings: a controller-manager stopped half-way. */
class StoppedAtBindings extends ApiClient {
  override update<T extends ApiObject>(res: ResourceRef, object: T, options?: WriteOptions): Promise<T> {
    if (res.plural === ROLE_BINDINGS.plural) return Promise.reject(new Error('stopped before the bindings'));
    return super.update(res, object, options);
  }
}

async function reconcilerSeeing(with_: ApiClient, ...cached: ApiObject[]): Promise<UserCleanupReconciler> {
  const informer = new Informer(new FakeListerWatcher(cached), { name: 'users', log });
  informers.push(informer);
  informer.start();
  await informer.waitForSync();
  return new UserCleanupReconciler(with_, informer.cache);
}

/** A user with a password, a token, and two bindings: one naming them alone, one shared with `other`. */
async function userWithEverything(name: string, other: string): Promise<{ user: ApiObject; token: string }> {
  expectStatus(await raw('POST', '/api/v1alpha1/users', { metadata: { name } }), 201, `creating ${name}`);
  const password = `${name}-password`;
  expectStatus(await raw('PUT', `/api/v1alpha1/users/${name}/password`, { password }), 200, 'setting a password');
  const { token } = await createToken(rawClient(server.url, basic(name, password)));
  for (const [binding, subjects] of [
    [`${name}-only`, [name]],
    [`${name}-shared`, [name, other]],
  ] as const) {
    await client.create(ROLE_BINDINGS, {
      apiVersion: 'v1alpha1',
      kind: 'RoleBinding',
      metadata: { name: binding },
      roleRef: { apiGroup: '', kind: 'Role', name: 'guest' },
      subjects: subjects.map((s) => ({ kind: 'User', apiGroup: '', name: s })),
    } as ApiObject);
  }
  return { user: await client.get(USERS, name), token };
}

const mark = async (name: string) => {
  const result = await client.delete(USERS, name);
  if (result.removed) throw new Error(`${name} was removed, not marked`);
  return result.object;
};
const hasPassword = (name: string) =>
  server.storage.get(CREDENTIALS_TYPE, passwordCredentialName(name)).then(
    () => true,
    () => false,
  );
const tokensOf = async (name: string) =>
  (await client.list(TOKENS, { fieldSelector: `spec.username=${name}` })).items.filter(
    (t) => !t.metadata.deletionTimestamp,
  );
const binding = (name: string) => client.get<ApiObject & { subjects: { name: string }[] }>(ROLE_BINDINGS, name);

describe('UserCleanupReconciler', () => {
  it('finishes on the next run a cleanup cut short half-way, and removes the finalizer last', async () => {
    await userWithEverything('ivy', 'jo');
    const marked = await mark('ivy');

    const stopped = new StoppedAtBindings({ server: server.url });
    await expect((await reconcilerSeeing(stopped, marked)).reconcile({ name: 'ivy' }, ctx)).rejects.toThrow(
      'stopped before the bindings',
    );
    expect(await hasPassword('ivy')).toBe(false);
    expect(await tokensOf('ivy')).toEqual([]);
    expect((await binding('ivy-shared')).subjects.map((s) => s.name)).toEqual(['ivy', 'jo']);
    expect((await client.get(USERS, 'ivy')).metadata.finalizers).toEqual([USER_CLEANUP_FINALIZER]);

    await (await reconcilerSeeing(client, marked)).reconcile({ name: 'ivy' }, ctx);
    expect((await binding('ivy-shared')).subjects.map((s) => s.name)).toEqual(['jo']);
    expect((await binding('ivy-only')).metadata.deletionTimestamp).toBeDefined();
    expect((await client.get(USERS, 'ivy')).metadata.finalizers ?? []).toEqual([]);
  });

  it('leaves a later user of the same name alone when its cache still shows the earlier one', async () => {
    await userWithEverything('kim', 'lou');
    const earlier = await mark('kim');
    // The earlier kim is let go by hand and removed; a new kim takes the name.
    await client.patch(USERS, 'kim', { metadata: { finalizers: [] } });
    await client.delete(USERS, 'kim');
    // The new kim gets a password and a token; the earlier kim's bindings are still there (nobody cleaned up).
    expectStatus(await raw('POST', '/api/v1alpha1/users', { metadata: { name: 'kim' } }), 201, 'creating kim again');
    expectStatus(await raw('PUT', '/api/v1alpha1/users/kim/password', { password: 'new-kim-password' }), 200, 'pw');
    await createToken(rawClient(server.url, basic('kim', 'new-kim-password')));
    expect(await hasPassword('kim')).toBe(true);

    await (await reconcilerSeeing(client, earlier)).reconcile({ name: 'kim' }, ctx);
    expect(await hasPassword('kim')).toBe(true);
    expect((await tokensOf('kim')).length).toBeGreaterThan(0);
    expect((await binding('kim-shared')).subjects.map((s) => s.name)).toEqual(['kim', 'lou']);
    expect((await client.get(USERS, 'kim')).metadata.finalizers).toEqual([USER_CLEANUP_FINALIZER]);
  });

  it('gives the finalizer back to a user stored without it', async () => {
    await client.create(USERS, { apiVersion: 'v1alpha1', kind: 'User', metadata: { name: 'max' } });
    const bare = await server.storage.update(storageTypeOf(USER_KIND), 'max', (u) => {
      u.metadata.finalizers = [];
      return u;
    });
    await (await reconcilerSeeing(client, bare)).reconcile({ name: 'max' }, ctx);
    expect((await client.get(USERS, 'max')).metadata.finalizers).toEqual([USER_CLEANUP_FINALIZER]);
  });

  it('is done when the user is gone from its cache', async () => {
    await expect((await reconcilerSeeing(client)).reconcile({ name: 'nobody' }, ctx)).resolves.toBeUndefined();
  });
});
