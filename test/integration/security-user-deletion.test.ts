import { USER_CLEANUP_FINALIZER } from '../../pkg/auth/user-finalizer';
import { CREDENTIALS_TYPE, type Credential } from '../../pkg/registry/security/credentials';
import { startTestApiServer } from '../support/apiserver';
import {
  controllerManagerTokenFile,
  startTestControllerManager,
  stopTestControllerManagers,
} from '../support/controller-manager';
import { sharedRedisUrl, uniqueKeyPrefix } from '../support/redis';
import {
  basic,
  bearer,
  bind,
  BINDINGS,
  createRole,
  createToken,
  createUser,
  expectStatus,
  MY_PERMISSIONS,
  rbacApi,
  UC_TOKENS,
  USERS,
  type RbacApi,
} from '../support/security';
import { waitFor } from '../support/wait-for';

// Deleting a user (docs/security.md, "Deleting a user"), on an RBAC apiserver with a controller-manager acting as
// system:controller-manager through its own role: the user's password, tokens and bindings go, and a new user of the
// same name inherits none of them.

const cm = controllerManagerTokenFile('controller-manager-token-for-the-user-deletion-test');
const store = `${sharedRedisUrl()}?keyPrefix=${uniqueKeyPrefix('user-deletion')}`;
const WHO_AM_I = '/apis/api.console.svc.run/v1alpha1/users/-';
const ALL_TOKENS = '/api/v1alpha1/personalaccesstokens';

const api = {} as RbacApi;
const startServer = async () =>
  Object.assign(
    api,
    rbacApi(await startTestApiServer({ authorizationMode: 'RBAC', controllerManagerTokenFile: cm.file, store })),
  );
// Without leader election: a lease lost to a slow renewal on a busy machine would stop the controllers mid-test.
const startControllerManager = () =>
  startTestControllerManager(api.server.url, { token: cm.token, leaderElection: false });

beforeAll(startServer);
afterEach(() => stopTestControllerManagers());
afterAll(async () => {
  await api.server?.stop();
  cm.remove();
});

const statusOf = async (path: string) => (await api.admin('GET', path)).status;
const gone = (path: string, what: string) =>
  waitFor(async () => (await statusOf(path)) === 404, { what, timeoutMs: 20_000 });

describe('deleting a user', () => {
  it("removes their password, tokens and bindings' entries; a new user of the name gets none of them", async () => {
    await startControllerManager();
    const dora = await createUser(api, 'dora', 'dora-password');
    await createUser(api, 'eve');
    await bind(api, 'dora', 'guest', 'dora-guest');
    // A role the controller-manager does not hold: taking dora off it must not need its rules.
    expectStatus(
      await api.admin('POST', BINDINGS, {
        metadata: { name: 'post-editors' },
        roleRef: { apiGroup: '', kind: 'Role', name: 'post-editor' },
        subjects: [
          { kind: 'User', apiGroup: '', name: 'dora' },
          { kind: 'User', apiGroup: '', name: 'eve' },
        ],
      }),
      201,
      'binding post-editor to dora and eve',
    );
    const { token, name: tokenName } = await createToken(dora);
    expect((await api.as(bearer(token))('GET', WHO_AM_I)).status).toBe(200);

    expectStatus(await api.admin('DELETE', `${USERS}/dora`), 200, 'deleting dora');
    // From the mark on, neither the password nor the token logs in.
    expect((await api.as(bearer(token))('GET', WHO_AM_I)).status).toBe(401);
    expect((await dora('GET', WHO_AM_I)).status).toBe(401);

    await gone(`${USERS}/dora`, 'dora to be cleaned up and removed');
    await gone(`${BINDINGS}/dora-guest`, "dora's only binding to be deleted");
    await gone(`${ALL_TOKENS}/${tokenName}`, "dora's token to be deleted");
    expect((await api.admin('GET', `${BINDINGS}/post-editors`)).body.subjects).toEqual([
      { kind: 'User', apiGroup: '', name: 'eve' },
    ]);

    // A new dora: the old password and token stay dead, and she holds nothing of the old one's.
    expectStatus(await api.admin('POST', USERS, { metadata: { name: 'dora' } }), 201, 're-creating dora');
    expect((await dora('GET', WHO_AM_I)).status).toBe(401);
    expect((await api.as(bearer(token))('GET', WHO_AM_I)).status).toBe(401);
    expect((await api.admin('GET', `${BINDINGS}?fieldSelector=subjects.name=dora`)).body.items).toEqual([]);
    const newDora = api.as(basic('dora', 'dora-new-password'));
    expectStatus(
      await api.admin('PUT', `${USERS}/dora/password`, { password: 'dora-new-password' }),
      200,
      "setting the new dora's password",
    );
    expect((await newDora('GET', MY_PERMISSIONS)).body.roles).toEqual([]);
    expect((await newDora('GET', UC_TOKENS)).body.items).toEqual([]);
  });

  it('keeps the finalizer on every user, and finishes a cleanup that no controller-manager ran, once one starts', async () => {
    const fred = await createUser(api, 'fred', 'fred-password');
    await bind(api, 'fred', 'guest', 'fred-guest');
    const { token, name: tokenName } = await createToken(fred);
    const user = (await api.admin('GET', `${USERS}/fred`)).body;
    expect(user.metadata.finalizers).toEqual([USER_CLEANUP_FINALIZER]);
    // A PUT of the user without its finalizer keeps it.
    const replaced = await api.admin('PUT', `${USERS}/fred`, {
      ...user,
      metadata: { ...user.metadata, finalizers: [] },
    });
    expectStatus(replaced, 200, 'replacing fred');
    expect(replaced.body.metadata.finalizers).toEqual([USER_CLEANUP_FINALIZER]);
    // A live user's password is replaced, never removed.
    expect((await api.admin('DELETE', `${USERS}/fred/password`)).status).toBe(409);

    // No controller-manager runs: the user stays, marked and held by the finalizer, and cannot log in.
    expectStatus(await api.admin('DELETE', `${USERS}/fred`), 200, 'deleting fred');
    const marked = (await api.admin('GET', `${USERS}/fred`)).body;
    expect(marked.metadata.deletionTimestamp).toBeDefined();
    expect(marked.metadata.finalizers).toEqual([USER_CLEANUP_FINALIZER]);
    expect((await api.as(bearer(token))('GET', WHO_AM_I)).status).toBe(401);
    expect((await fred('GET', WHO_AM_I)).status).toBe(401);
    expect((await api.admin('PUT', `${USERS}/fred/password`, { password: 'fred-password-2' })).status).toBe(409);
    // Nothing granted now could outlive the cleanup: no binding may name fred any more.
    const late = await api.admin('POST', BINDINGS, {
      metadata: { name: 'fred-late' },
      roleRef: { apiGroup: '', kind: 'Role', name: 'guest' },
      subjects: [{ kind: 'User', apiGroup: '', name: 'fred' }],
    });
    expect(late.status).toBe(409);
    // A cleanup cut short: the token went, the rest did not.
    expectStatus(await api.admin('DELETE', `${ALL_TOKENS}/${tokenName}`), 200, "deleting fred's token");

    await startControllerManager();
    await gone(`${USERS}/fred`, 'fred to be cleaned up and removed');
    await gone(`${BINDINGS}/fred-guest`, "fred's binding to be deleted");
    expectStatus(await api.admin('POST', USERS, { metadata: { name: 'fred' } }), 201, 're-creating fred');
    expect((await fred('GET', WHO_AM_I)).status).toBe(401);
  });

  it('never lets a password or token left behind by a user removed without cleanup log in the next user of the name', async () => {
    const hal = await createUser(api, 'hal', 'hal-password');
    const { token } = await createToken(hal);
    // No controller-manager runs, and the finalizer is taken off by hand: the user is removed with nothing cleaned.
    expectStatus(await api.admin('DELETE', `${USERS}/hal`), 200, 'marking hal');
    expectStatus(
      await api.admin(
        'PATCH',
        `${USERS}/hal`,
        { metadata: { finalizers: [] } },
        { 'Content-Type': 'application/merge-patch+json' },
      ),
      200,
      "taking hal's finalizer off",
    );
    expectStatus(await api.admin('DELETE', `${USERS}/hal`), 200, 'removing hal');
    expectStatus(await api.admin('POST', USERS, { metadata: { name: 'hal' } }), 201, 're-creating hal');
    expect((await hal('GET', WHO_AM_I)).status).toBe(401);
    expect((await api.as(bearer(token))('GET', WHO_AM_I)).status).toBe(401);
  });

  it('lets a user who may update bindings take users off a binding of a role they do not hold, but add nobody', async () => {
    await createRole(api, 'binding-updater', [
      { apiGroups: [''], resources: ['rolebindings'], verbs: ['get', 'update'] },
    ]);
    const rita = await createUser(api, 'rita');
    await bind(api, 'rita', 'binding-updater');
    expectStatus(
      await api.admin('POST', BINDINGS, {
        metadata: { name: 'editors-x-y' },
        roleRef: { apiGroup: '', kind: 'Role', name: 'post-editor' },
        subjects: ['x', 'y'].map((name) => ({ kind: 'User', apiGroup: '', name })),
      }),
      201,
      'binding post-editor to x and y',
    );
    const current = (await rita('GET', `${BINDINGS}/editors-x-y`)).body;
    const withSubjects = (names: string[]) => ({
      ...current,
      subjects: names.map((name) => ({ kind: 'User', apiGroup: '', name })),
    });
    expect((await rita('PUT', `${BINDINGS}/editors-x-y`, withSubjects(['x', 'rita']))).status).toBe(403);
    const removed = await rita('PUT', `${BINDINGS}/editors-x-y`, withSubjects(['x']));
    expect(removed.status).toBe(200);
    expect(removed.body.subjects).toEqual([{ kind: 'User', apiGroup: '', name: 'x' }]);
  });

  it('gives credentials stored before uids were recorded to the current user of the name at the next start, and removes those nobody can use', async () => {
    const gus = await createUser(api, 'gus', 'gus-password');
    const { token } = await createToken(gus);
    // Make the store look as it did before: no uids on credentials, one credential of a user that is gone.
    const storage = api.server.storage;
    for (const credential of (await storage.list(CREDENTIALS_TYPE)).items as Credential[]) {
      if (credential.data.user !== 'gus') continue;
      await storage.update(CREDENTIALS_TYPE, credential.metadata.name!, (c) => {
        delete (c as Credential).data.uid;
        return c;
      });
    }
    const orphan: Credential = {
      apiVersion: 'v1alpha1',
      kind: 'Credential',
      metadata: { name: 'password-gone-before' },
      data: { user: 'gone-before', hash: 'not-a-hash' },
    };
    await storage.create(CREDENTIALS_TYPE, orphan);
    // A password left by an earlier user of a name (another uid) is of no use to anyone either.
    expectStatus(await api.admin('POST', USERS, { metadata: { name: 'ivan' } }), 201, 'creating ivan');
    await storage.create(CREDENTIALS_TYPE, {
      ...orphan,
      metadata: { name: 'password-ivan' },
      data: { user: 'ivan', uid: 'an-earlier-ivan', hash: 'not-a-hash' },
    } as Credential);
    // A credential without a uid never logs in.
    await waitFor(async () => (await gus('GET', WHO_AM_I)).status === 401, { what: "gus's uid-less password to fail" });
    expect((await api.as(bearer(token))('GET', WHO_AM_I)).status).toBe(401);

    await api.server.stop();
    await startServer();
    expect((await api.as(basic('gus', 'gus-password'))('GET', WHO_AM_I)).status).toBe(200);
    expect((await api.as(bearer(token))('GET', WHO_AM_I)).status).toBe(200);
    await expect(api.server.storage.get(CREDENTIALS_TYPE, 'password-gone-before')).rejects.toThrow();
    await expect(api.server.storage.get(CREDENTIALS_TYPE, 'password-ivan')).rejects.toThrow();
  });

  it('does not create a deleted admin again at the next start, nor give it back its super-role', async () => {
    await createUser(api, 'sam', 'sam-password');
    await bind(api, 'sam', 'super-role', 'sam-super-role');
    const asSam = () => api.as(basic('sam', 'sam-password'));
    await startControllerManager();
    expectStatus(await asSam()('DELETE', `${USERS}/admin`), 200, 'deleting admin');
    await waitFor(async () => (await asSam()('GET', `${USERS}/admin`)).status === 404, {
      what: 'admin to be removed',
      timeoutMs: 20_000,
    });
    await stopTestControllerManagers();
    await api.server.stop();
    await startServer();
    expect((await asSam()('GET', `${USERS}/admin`)).status).toBe(404);
    const bindings = (await asSam()('GET', `${BINDINGS}?fieldSelector=roleRef.name%3Dsuper-role`)).body.items;
    expect(bindings.flatMap((b: { subjects: { name: string }[] }) => b.subjects.map((s) => s.name))).toEqual(['sam']);
  });
});
