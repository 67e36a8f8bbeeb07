import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, startTestApiServer, TEST_ADMIN_PASSWORD } from '../support/apiserver';
import { sharedRedisUrl, uniqueKeyPrefix } from '../support/redis';
import { PERSONS } from '../support/person';
import { waitFor } from '../support/wait-for';
import { openStorage } from '../../pkg/storage';
import { CREDENTIALS_TYPE, passwordCredentialName } from '../../pkg/registry/security/credentials';
import {
  ACCESS_REVIEWS,
  basic,
  bearer,
  bind,
  BINDINGS,
  createRole,
  createUser,
  expectStatus,
  MY_PERMISSIONS,
  ROLES,
  useRbacApi,
  USERS,
} from '../support/security';

// The security endpoints (docs/security.md): passwords, permissions, access reviews; the controller-manager's token.
const suite = useRbacApi();
const PROTOBUF_FIXTURES = join(__dirname, '..', '..', 'pkg', 'apiserver', 'k8s-protobuf', 'testdata');

describe('passwords', () => {
  it('lets a user change their own password with the old one; a wrong old one is 422 on oldPassword', async () => {
    const ivy = await createUser(suite, 'ivy', 'first-password');
    const self = '/apis/uc.api.security.svc.run/v1alpha1/users/-/password';
    const wrong = await ivy('PUT', self, { oldPassword: 'not-it-at-all', password: 'second-password' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.details.causes).toEqual([expect.objectContaining({ field: 'oldPassword' })]);
    const short = await ivy('PUT', self, { oldPassword: 'first-password', password: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.details.causes[0].field).toBe('password');
    expect((await ivy('PUT', self, { oldPassword: 'first-password', password: 'second-password' })).status).toBe(200);
    expect((await ivy('GET', '/apis/api.console.svc.run/v1alpha1/users/-')).status).toBe(401);
    expect(
      (await suite.as(basic('ivy', 'second-password'))('GET', '/apis/api.console.svc.run/v1alpha1/users/-')).body
        .metadata.name,
    ).toBe('ivy');
  });

  it("lets only administrators set another user's password", async () => {
    const jack = await createUser(suite, 'jack');
    expect((await jack('PUT', `${USERS}/ivy/password`, { password: 'taken-over!' })).status).toBe(403);
    expect((await suite.admin('PUT', `${USERS}/nobody-here/password`, { password: 'whatever-1' })).status).toBe(404);
  });

  it('is no route under a longer path: 404, and the password stays', async () => {
    const lou = await createUser(suite, 'lou', 'lou-password');
    for (const path of [`${USERS}/lou/password/extra`, `${USERS}/lou/password/a/b`]) {
      const res = await suite.admin('PUT', path, { password: 'changed-password' });
      expect([path, res.status, res.body.reason]).toEqual([path, 404, 'NotFound']);
    }
    expect((await lou('GET', MY_PERMISSIONS)).status).toBe(200);
  });
});

describe('permissions', () => {
  it('lists a user\'s roles (hidden ones left out) and UI permissions; the admin has "*"', async () => {
    expect((await suite.admin('GET', MY_PERMISSIONS)).body).toEqual({ roles: ['super-role'], uiPermissions: ['*'] });
    const kate = await createUser(suite, 'kate');
    expect((await kate('GET', MY_PERMISSIONS)).body).toEqual({ roles: [], uiPermissions: [] });
    await createRole(suite, 'people-view', [], {
      annotations: { 'rbac.authorization.svc.run/ui-permissions': '["plugin:people:person:view"]' },
    });
    await createRole(suite, 'secret-helper', [], { labels: { 'svc.run/hidden': 'true' } });
    await bind(suite, 'kate', 'people-view');
    await bind(suite, 'kate', 'secret-helper');
    expect((await kate('GET', MY_PERMISSIONS)).body).toEqual({
      roles: ['people-view'],
      uiPermissions: ['plugin:people:person:view'],
    });
  });

  it('answers an unchanged poll with 304 and no body (If-None-Match), and a role change with the new answer', async () => {
    const nora = await createUser(suite, 'nora');
    const first = await nora('GET', MY_PERMISSIONS);
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const unchanged = await nora('GET', MY_PERMISSIONS, undefined, { 'If-None-Match': etag });
    expect([unchanged.status, unchanged.text]).toEqual([304, '']);
    await createRole(suite, 'nora-viewer', [], {
      annotations: { 'rbac.authorization.svc.run/ui-permissions': '["system:users:view"]' },
    });
    await bind(suite, 'nora', 'nora-viewer');
    await waitFor(
      async () => (await nora('GET', MY_PERMISSIONS, undefined, { 'If-None-Match': etag })).status === 200,
      {
        what: "nora's new role to change her permissions",
      },
    );
    const changed = await nora('GET', MY_PERMISSIONS, undefined, { 'If-None-Match': etag });
    expect(changed.body.uiPermissions).toEqual(['system:users:view']);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it("replaces a user's bindings with POST …/users/{name}/permissions", async () => {
    await createUser(suite, 'liam');
    await createRole(suite, 'liam-a', []);
    await createRole(suite, 'liam-b', []);
    const path = '/apis/api.console.svc.run/v1alpha1/users/liam/permissions';
    expect((await suite.admin('POST', path, { roles: ['liam-a', 'liam-b'] })).body).toEqual({
      roles: ['liam-a', 'liam-b'],
    });
    expect((await suite.admin('GET', path)).body.roles).toEqual(['liam-a', 'liam-b']);
    expect((await suite.admin('POST', path, { roles: ['liam-b'] })).status).toBe(200);
    expect((await suite.admin('GET', path)).body.roles).toEqual(['liam-b']);
    const bindings = (await suite.admin('GET', `${BINDINGS}?fieldSelector=subjects.name%3Dliam`)).body.items;
    expect(bindings.filter((b: any) => !b.metadata.deletionTimestamp).map((b: any) => b.roleRef.name)).toEqual([
      'liam-b',
    ]);
    const missing = await suite.admin('POST', path, { roles: ['no-such-role'] });
    expect(missing.status).toBe(422);
    expect(missing.body.details.causes[0].field).toBe('roles[0]');
  });
});

describe('access reviews', () => {
  it('explains an allowed request with the path binding → role → rule, and a denied one with the closest rules', async () => {
    await createUser(suite, 'mia');
    await createRole(suite, 'mia-reader', [{ apiGroups: ['example.com'], resources: ['persons'], verbs: ['get'] }]);
    await bind(suite, 'mia', 'mia-reader');
    const mia = suite.as(basic('mia', 'mia-password'));
    const allowed = await mia('POST', ACCESS_REVIEWS, {
      spec: { verb: 'get', group: 'example.com', resource: 'persons', name: 'ada' },
    });
    expect(allowed.status).toBe(201);
    expect(allowed.body.status.allowed).toBe(true);
    expect(allowed.body.status.trace.map((t: any) => t.kind)).toEqual(['RoleBinding', 'Role', 'Rule']);
    expect(allowed.body.status.trace[0].name).toBe('mia-mia-reader');
    const denied = await mia('POST', ACCESS_REVIEWS, {
      spec: { verb: 'delete', group: 'example.com', resource: 'persons', name: 'ada' },
    });
    expect(denied.body.status.allowed).toBe(false);
    expect(denied.body.status.reason).toContain('mia');
    expect(denied.body.status.trace.some((t: any) => t.kind === 'Rule' && /verb "delete"/.test(t.message))).toBe(true);
    const path = await mia('POST', ACCESS_REVIEWS, { spec: { verb: 'get', path: '/healthz' } });
    expect(path.body.status.allowed).toBe(true);
  });

  it('reviews another user only for those allowed to; checks its input', async () => {
    const mia = suite.as(basic('mia', 'mia-password'));
    expect(
      (await mia('POST', ACCESS_REVIEWS, { spec: { user: 'admin', verb: 'get', group: '', resource: 'roles' } }))
        .status,
    ).toBe(403);
    const review = await suite.admin('POST', ACCESS_REVIEWS, {
      spec: { user: 'mia', verb: 'get', group: 'example.com', resource: 'persons' },
    });
    expect(review.body.status.allowed).toBe(true);
    expect(review.body.spec.user).toBe('mia');
    const bad = await mia('POST', ACCESS_REVIEWS, { spec: { group: 'example.com' } });
    expect(bad.status).toBe(422);
    expect(bad.body.details.causes.map((c: any) => c.field)).toEqual(['spec.verb', 'spec.resource']);
    expect((await suite.anonymous('POST', ACCESS_REVIEWS, { spec: { verb: 'get', path: '/healthz' } })).status).toBe(
      401,
    );
  });

  it('refuses a review whose fields are of the wrong type with 422 naming each, never reading them as names', async () => {
    const mia = suite.as(basic('mia', 'mia-password'));
    const causes = async (path: string, body: unknown, who = mia) => {
      const res = await who('POST', path, body);
      expect([path, res.status, res.body.reason]).toEqual([path, 422, 'Invalid']);
      return res.body.details.causes.map((c: any) => [c.field, c.message]);
    };
    expect(await causes(ACCESS_REVIEWS, { spec: { user: { name: 'admin' }, verb: 'get', resource: 'roles' } })).toEqual(
      [['spec.user', 'must be a string']],
    );
    expect(await causes(ACCESS_REVIEWS, { spec: { user: ['admin'], verb: 7, resource: 'roles', name: {} } })).toEqual([
      ['spec.user', 'must be a string'],
      ['spec.verb', 'must be a string'],
      ['spec.name', 'must be a string'],
    ]);
    expect(await causes(ACCESS_REVIEWS, { spec: 'get roles' })).toEqual([['spec', 'must be an object']]);
    const sar = '/apis/authorization.k8s.io/v1/subjectaccessreviews';
    const attributes = { verb: 'get', group: 'example.com', resource: 'persons' };
    expect(await causes(sar, { spec: { user: { name: 'mia' }, resourceAttributes: attributes } }, suite.admin)).toEqual(
      [['spec.user', 'must be a string']],
    );
    const ssar = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
    expect(await causes(ssar, { spec: { resourceAttributes: 'get persons' } })).toEqual([
      ['spec.resourceAttributes', 'must be an object'],
    ]);
    expect(await causes(ssar, { spec: { resourceAttributes: { ...attributes, verb: { all: true } } } })).toEqual([
      ['spec.resourceAttributes.verb', 'must be a string'],
    ]);
    const rules = '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews';
    expect(await causes(rules, { spec: { namespace: { name: 'default' } } })).toEqual([
      ['spec.namespace', 'must be a string'],
    ]);
    expect(await causes(rules, { spec: ['default'] })).toEqual([['spec', 'must be an object']]);
    expect((await mia('POST', rules, { spec: { namespace: 'default' } })).status).toBe(201);
  });

  it("answers kubectl's SelfSubjectAccessReview, in JSON and in protobuf", async () => {
    const mia = suite.as(basic('mia', 'mia-password'));
    const ssar = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
    const json = await mia('POST', ssar, {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { namespace: 'default', verb: 'get', group: 'example.com', resource: 'persons' } },
    });
    expect(json.status).toBe(201);
    expect(json.body).toMatchObject({ kind: 'SelfSubjectAccessReview', status: { allowed: true } });
    const body = readFileSync(join(PROTOBUF_FIXTURES, 'can-i-delete-persons-ada.pb'));
    const res = await fetch(`${suite.server.url}${ssar}`, {
      method: 'POST',
      body,
      headers: { ...basic('mia', 'mia-password'), 'Content-Type': 'application/vnd.kubernetes.protobuf' },
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { status: { allowed: boolean } }).status.allowed).toBe(false);
    const sar = '/apis/authorization.k8s.io/v1/subjectaccessreviews';
    const review = {
      spec: { user: 'mia', resourceAttributes: { verb: 'get', group: 'example.com', resource: 'persons' } },
    };
    expect((await mia('POST', sar, review)).status).toBe(403);
    expect((await suite.admin('POST', sar, review)).body.status.allowed).toBe(true);
  });
});

describe('bootstrap', () => {
  it('ships the built-in roles, with anonymous and authenticated hidden', async () => {
    const names = (await suite.admin('GET', ROLES)).body.items.map((r: any) => r.metadata.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'super-role',
        'anonymous',
        'authenticated',
        'guest',
        'post-contributor',
        'post-author',
        'post-editor',
      ]),
    );
    const anonymous = (await suite.admin('GET', `${ROLES}/anonymous`)).body;
    expect(anonymous.metadata.labels['svc.run/hidden']).toBe('true');
  });

  it("re-applies the built-in roles at the next start without clobbering an administrator's edits; the first admin password stays", async () => {
    const store = `${sharedRedisUrl()}?keyPrefix=${uniqueKeyPrefix('bootstrap')}`;
    const first = await startTestApiServer({ authorizationMode: 'RBAC', store });
    const admin = client(first.url, basic('admin', TEST_ADMIN_PASSWORD));
    const editor = (await admin('GET', `${ROLES}/post-editor`)).body;
    const extra = { apiGroups: ['example.com'], resources: ['persons'], verbs: ['get'] };
    expectStatus(
      await admin('PUT', `${ROLES}/post-editor`, {
        ...editor,
        rules: [extra],
        metadata: { ...editor.metadata, labels: { team: 'content' } },
      }),
      200,
      'editing post-editor',
    );
    const author = (await admin('GET', `${ROLES}/post-author`)).body;
    expectStatus(
      await admin('PUT', `${ROLES}/post-author`, {
        ...author,
        rules: [],
        metadata: {
          ...author.metadata,
          annotations: { ...author.metadata.annotations, 'rbac.authorization.svc.run/autoupdate': 'false' },
        },
      }),
      200,
      'opting post-author out',
    );
    await first.stop();
    const second = await startTestApiServer({
      authorizationMode: 'RBAC',
      store,
      adminPassword: 'a-different-password',
    });
    try {
      const again = client(second.url, basic('admin', TEST_ADMIN_PASSWORD));
      const after = (await again('GET', `${ROLES}/post-editor`)).body;
      expect(after.rules[0]).toEqual(extra);
      expect(after.rules.slice(1)).toEqual(editor.rules);
      expect(after.metadata.labels).toEqual({ team: 'content' });
      expect((await again('GET', `${ROLES}/post-author`)).body.rules).toEqual([]);
    } finally {
      await second.stop();
    }
  });

  it('finishes a first start that died between creating admin and storing its password', async () => {
    const store = `${sharedRedisUrl()}?keyPrefix=${uniqueKeyPrefix('bootstrap-crash')}`;
    const first = await startTestApiServer({ authorizationMode: 'RBAC', store });
    await first.stop();
    const storage = await openStorage(store);
    try {
      await storage.delete(CREDENTIALS_TYPE, passwordCredentialName('admin'));
    } finally {
      await storage.close();
    }
    const second = await startTestApiServer({ authorizationMode: 'RBAC', store, adminPassword: 'recovered-pass-1' });
    try {
      expect((await client(second.url, basic('admin', 'recovered-pass-1'))('GET', ROLES)).status).toBe(200);
      expect((await client(second.url, basic('admin', TEST_ADMIN_PASSWORD))('GET', ROLES)).status).toBe(401);
    } finally {
      await second.stop();
    }
  });

  it("writes the controller-manager's token file (0600) when absent, and takes the token of one that exists", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cm-token-'));
    try {
      const made = join(dir, 'made.token');
      const first = await startTestApiServer({ authorizationMode: 'RBAC', controllerManagerTokenFile: made });
      try {
        expect(statSync(made).mode & 0o777).toBe(0o600);
        const token = readFileSync(made, 'utf8').trim();
        expect(
          (
            await client(first.url, bearer(token))(
              'GET',
              PERSONS.replace('persons', 'leases').replace('example.com', 'coordination.svc.run'),
            )
          ).status,
        ).toBe(200);
        expect((await client(first.url, bearer(token))('GET', USERS)).status).toBe(200);
        // It creates roles (plugins' role templates) but binds nobody to anything.
        expect(
          (
            await client(first.url, bearer(token))('POST', BINDINGS, {
              metadata: { name: 'x' },
              roleRef: { apiGroup: '', kind: 'Role', name: 'super-role' },
              subjects: [{ kind: 'User', apiGroup: '', name: 'system:controller-manager' }],
            })
          ).status,
        ).toBe(403);
        expect(
          (await client(first.url, bearer(token))('POST', USERS, { metadata: { name: 'x' }, spec: {} })).status,
        ).toBe(403);
      } finally {
        await first.stop();
      }
      const given = join(dir, 'given.token');
      writeFileSync(given, 'a-token-chosen-by-the-operator\n');
      const second = await startTestApiServer({ authorizationMode: 'RBAC', controllerManagerTokenFile: given });
      try {
        const cm = client(second.url, bearer('a-token-chosen-by-the-operator'));
        expect((await cm('GET', USERS)).status).toBe(200);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
