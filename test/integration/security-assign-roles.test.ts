import { client, startTestApiServer, type ApiClient } from '../support/apiserver';
import { captureLog, LEVEL } from '../support/log-capture';
import { sharedRedisUrl, uniqueKeyPrefix } from '../support/redis';
import { waitFor } from '../support/wait-for';
import { openStorage } from '../../pkg/storage';
import { storageTypeOf } from '../../pkg/registry/model';
import { ROLE_BINDING_KIND } from '../../pkg/registry/security/role-binding-kind';
import {
  basic,
  bind,
  BINDINGS,
  createRole,
  createUser,
  expectStatus,
  useRbacApi,
  USERS,
  type RbacApi,
} from '../support/security';

// Assigning roles (POST …/users/{name}/permissions) and the last super administrator, acted out by
// non-administrators through the real authoriser.
const suite = useRbacApi();
const permissions = (user: string) => `/apis/api.console.svc.run/v1alpha1/users/${user}/permissions`;
const MERGE_PATCH = { 'Content-Type': 'application/merge-patch+json' };

/** What a console's "assign roles" needs: the endpoint, and creating bindings (of roles one holds). */
const ASSIGN_RULES = [
  { apiGroups: ['api.console.svc.run'], resources: ['users/permissions'], verbs: ['get', 'create'] },
  { apiGroups: [''], resources: ['rolebindings'], verbs: ['create'] },
];

/** The binding as stored, or undefined once it is gone or marked for deletion. */
async function liveBinding(api: RbacApi, name: string, as: ApiClient = api.admin): Promise<any> {
  const res = await as('GET', `${BINDINGS}/${name}`);
  if (res.status === 404) return undefined;
  expectStatus(res, 200, `reading binding ${name}`);
  return res.body.metadata.deletionTimestamp ? undefined : res.body;
}

const subjectsOf = (binding: any) => binding.subjects.map((s: any) => s.name);

beforeAll(async () => {
  await createRole(suite, 'reader', [{ apiGroups: ['example.com'], resources: ['persons'], verbs: ['get'] }]);
  await createRole(suite, 'handout', []);
});

describe('assigning roles strips nobody the caller may not', () => {
  it('refuses (403, nothing changed) a user who may only create bindings to remove or change others', async () => {
    await createRole(suite, 'assigner', ASSIGN_RULES);
    const rita = await createUser(suite, 'rita');
    await bind(suite, 'rita', 'assigner');
    await createUser(suite, 'vic');
    await bind(suite, 'vic', 'reader');

    const strip = await rita('POST', permissions('vic'), { roles: ['handout'] });
    expect(strip.status).toBe(403);
    expect(strip.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', details: { name: 'vic-reader' } });
    expect(strip.body.message).toContain('rolebindings "vic-reader" is forbidden: User "rita" cannot delete');
    expect(subjectsOf(await liveBinding(suite, 'vic-reader'))).toEqual(['vic']);
    // Nothing half-done: the new role, which rita could grant, was not bound either.
    expect(await liveBinding(suite, 'vic-handout')).toBeUndefined();

    const lockOut = await rita('POST', permissions('admin'), { roles: [] });
    expect(lockOut.status).toBe(403);
    expect(lockOut.body.details.name).toBe('admin-super-role');
    expect(subjectsOf(await liveBinding(suite, 'admin-super-role'))).toEqual(['admin']);
    expect((await suite.admin('GET', USERS)).status).toBe(200);

    await createUser(suite, 'walt');
    expectStatus(
      await suite.admin('POST', BINDINGS, {
        metadata: { name: 'shared-reader' },
        roleRef: { apiGroup: '', kind: 'Role', name: 'reader' },
        subjects: [
          { kind: 'User', apiGroup: '', name: 'vic' },
          { kind: 'User', apiGroup: '', name: 'walt' },
        ],
      }),
      201,
      'binding reader to vic and walt',
    );
    const takeOut = await rita('POST', permissions('walt'), { roles: [] });
    expect(takeOut.status).toBe(403);
    expect(takeOut.body.message).toContain('cannot update or patch resource "rolebindings"');
    expect(subjectsOf(await liveBinding(suite, 'shared-reader'))).toEqual(['vic', 'walt']);
  });

  it("lets a user allowed to delete bindings remove one, but never the last super administrator's", async () => {
    await createRole(suite, 'unassigner', [
      ...ASSIGN_RULES,
      { apiGroups: [''], resources: ['rolebindings'], verbs: ['delete', 'patch'] },
    ]);
    const dora = await createUser(suite, 'dora');
    await bind(suite, 'dora', 'unassigner');
    await createUser(suite, 'ned');
    await bind(suite, 'ned', 'reader');
    await bind(suite, 'ned', 'handout');

    const res = await dora('POST', permissions('ned'), { roles: ['handout'] });
    expect(res.status).toBe(200);
    expect(await liveBinding(suite, 'ned-reader')).toBeUndefined();
    expect((await suite.admin('GET', permissions('ned'))).body.roles).toEqual(['handout']);

    const lockOut = await dora('POST', permissions('admin'), { roles: [] });
    expect(lockOut.status).toBe(409);
    expect(lockOut.body).toMatchObject({ kind: 'Status', reason: 'Conflict' });
    expect(lockOut.body.message).toContain('"admin" is the last enabled super administrator');
    expect(await liveBinding(suite, 'admin-super-role')).toBeDefined();
  });
});

describe('the last enabled super administrator', () => {
  it('keeps their super-role binding whatever the admin tries (409 naming why)', async () => {
    const attempts: [string, string, unknown, Record<string, string>?][] = [
      ['POST', permissions('admin'), { roles: [] }],
      ['DELETE', `${BINDINGS}/admin-super-role`, undefined],
      ['PATCH', `${BINDINGS}/admin-super-role`, { subjects: [] }, MERGE_PATCH],
      ['DELETE', `${BINDINGS}?fieldSelector=metadata.name%3Dadmin-super-role`, undefined],
      ['PATCH', `${USERS}/admin`, { spec: { disabled: true } }, MERGE_PATCH],
      ['DELETE', `${USERS}/admin`, undefined],
    ];
    for (const [method, path, body, headers] of attempts) {
      const res = await suite.admin(method, path, body, headers);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 409 });
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'Conflict' });
      expect(res.body.message).toContain('user "admin" is the last enabled super administrator');
    }
    const put = await suite.admin('GET', `${BINDINGS}/admin-super-role`);
    const replaced = await suite.admin('PUT', `${BINDINGS}/admin-super-role`, { ...put.body, subjects: [] });
    expect(replaced.status).toBe(409);
    expect(subjectsOf(await liveBinding(suite, 'admin-super-role'))).toEqual(['admin']);
    expect((await suite.admin('GET', `${USERS}/admin`)).body.metadata.deletionTimestamp).toBeUndefined();
    expect((await suite.admin('GET', USERS)).status).toBe(200);
  });

  it('can be unbound while another enabled super administrator remains', async () => {
    const sam = await createUser(suite, 'sam');
    await bind(suite, 'sam', 'super-role');
    expect((await suite.admin('POST', permissions('admin'), { roles: [] })).status).toBe(200);
    expect(await liveBinding(suite, 'admin-super-role', sam)).toBeUndefined();

    // sam is now the last one.
    const last = await sam('DELETE', `${BINDINGS}/sam-super-role`);
    expect(last.status).toBe(409);
    expect(last.body.message).toContain('user "sam" is the last enabled super administrator');

    expect((await sam('POST', permissions('admin'), { roles: ['super-role'] })).status).toBe(200);
    await waitFor(async () => (await suite.admin('GET', USERS)).status === 200, { what: 'admin to be back' });
    expect((await sam('PATCH', `${USERS}/sam`, { spec: { disabled: true } }, MERGE_PATCH)).status).toBe(200);
    expect((await suite.admin('DELETE', `${BINDINGS}/sam-super-role`)).status).toBe(200);
  });

  it('keeps one of two when a deletecollection takes both bindings at once', async () => {
    const tess = await createUser(suite, 'tess');
    await bind(suite, 'tess', 'super-role');
    const both = await suite.admin('DELETE', `${BINDINGS}?fieldSelector=roleRef.name%3Dsuper-role`);
    expect(both.status).toBe(409);
    expect(both.body.message).toMatch(/is the last enabled super administrator/);
    // Whichever binding went first, the other user is still a super administrator.
    const answers = await Promise.all([suite.admin, tess].map((c) => c('GET', permissions('-'))));
    expect(answers.filter((a) => a.status === 200 && a.body.uiPermissions[0] === '*')).toHaveLength(1);
  });
});

describe('a start without an enabled super administrator', () => {
  it('warns with the command that restores admin, and that command restores it', async () => {
    const store = `${sharedRedisUrl()}?keyPrefix=${uniqueKeyPrefix('no-super-admin')}`;
    await (await startTestApiServer({ authorizationMode: 'RBAC', store })).stop();
    // A store locked out before the rule existed (or written around the API).
    const storage = await openStorage(store);
    try {
      await storage.delete(storageTypeOf(ROLE_BINDING_KIND), 'admin-super-role');
    } finally {
      await storage.close();
    }

    const warned = captureLog('info');
    const locked = await startTestApiServer({ authorizationMode: 'RBAC', store, adminPassword: undefined }, warned.log);
    try {
      const warning = warned.lines.find((l) => l.level === LEVEL.warn && /no enabled super administrator/.test(l.msg!));
      expect(warning).toMatchObject({ role: 'super-role', user: 'admin' });
      expect(warning!.command).toContain("SVC_ADMIN_PASSWORD='<a new password>' svc-apiserver");
      const admin = client(locked.url, basic('admin', 'admin-password-for-tests'));
      expect((await admin('GET', USERS)).status).toBe(403);
    } finally {
      await locked.stop();
    }

    const restoring = captureLog('info');
    const restored = await startTestApiServer(
      { authorizationMode: 'RBAC', store, adminPassword: 'restored-password-1' },
      restoring.log,
    );
    try {
      expect(restoring.lines).toContainEqual(
        expect.objectContaining({ level: LEVEL.warn, msg: expect.stringContaining('restored "admin"') }),
      );
      // The password restored admin: it was not ignored.
      expect(restoring.lines.filter((l) => /was ignored/.test(l.msg ?? ''))).toEqual([]);
      const admin = client(restored.url, basic('admin', 'restored-password-1'));
      await waitFor(async () => (await admin('GET', USERS)).status === 200, { what: 'the restored admin' });
    } finally {
      await restored.stop();
    }
    // With a super administrator, a start says nothing of the kind.
    const quiet = captureLog('info');
    await (await startTestApiServer({ authorizationMode: 'RBAC', store }, quiet.log)).stop();
    expect(quiet.lines.filter((l) => /super administrator/.test(l.msg ?? ''))).toEqual([]);
  });
});
