import { request } from 'node:http';
import { PERSONS, person } from '../support/person';
import { httpWatch } from '../support/watch-client';
import { basic, BINDINGS, bind, createRole, createUser, expectStatus, ROLES, useRbacApi } from '../support/security';
import { waitFor } from '../support/wait-for';

// Authorisation (docs/security.md): default deny, rules, path tricks, escalation, super-role, filtered watch.
const suite = useRbacApi();
const readPersons = [{ apiGroups: ['example.com'], resources: ['persons'], verbs: ['get', 'list'] }];

beforeAll(async () => {
  for (const name of ['ada', 'bob', 'eve'])
    expectStatus(await suite.admin('POST', PERSONS, person(name)), 201, `person ${name}`);
});

describe('default deny', () => {
  it('answers a logged-in user 403 naming user, verb, resource and group until a role grants it; the grant works at once', async () => {
    const carol = await createUser(suite, 'carol');
    const denied = await carol('GET', PERSONS);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ reason: 'Forbidden', code: 403 });
    expect(denied.body.message).toContain('User "carol" cannot list resource "persons" in API group "example.com"');
    await createRole(suite, 'person-reader', readPersons);
    await bind(suite, 'carol', 'person-reader');
    expect((await carol('GET', PERSONS)).status).toBe(200);
    expect((await carol('DELETE', `${PERSONS}/ada`)).status).toBe(403);
  });

  it('takes a role change into account without a new login', async () => {
    const dan = await createUser(suite, 'dan');
    await createRole(suite, 'changing', readPersons);
    await bind(suite, 'dan', 'changing');
    expect((await dan('POST', PERSONS, person('dan-made'))).status).toBe(403);
    const role = (await suite.admin('GET', `${ROLES}/changing`)).body;
    expectStatus(
      await suite.admin('PUT', `${ROLES}/changing`, {
        ...role,
        rules: [{ ...readPersons[0], verbs: ['get', 'list', 'create'] }],
      }),
      200,
      'role update',
    );
    expect((await dan('POST', PERSONS, person('dan-made'))).status).toBe(201);
    expectStatus(await suite.admin('DELETE', `${BINDINGS}/dan-changing`), 200, 'unbinding');
    expect((await dan('GET', PERSONS)).status).toBe(403);
  });

  it('does not let persons grant persons/status, and lets a binding to a deleted role grant nothing', async () => {
    const erin = await createUser(suite, 'erin');
    await createRole(suite, 'persons-only', [{ apiGroups: ['example.com'], resources: ['persons'], verbs: ['*'] }]);
    await bind(suite, 'erin', 'persons-only');
    expect((await erin('GET', `${PERSONS}/ada`)).status).toBe(200);
    expect((await erin('GET', `${PERSONS}/ada/status`)).status).toBe(403);
    const missing = await suite.admin('POST', BINDINGS, {
      metadata: { name: 'to-nothing' },
      roleRef: { apiGroup: '', kind: 'Role', name: 'no-such-role' },
      subjects: [{ kind: 'User', name: 'erin' }],
    });
    expect(missing.status).toBe(422);
    expect(missing.body.details.causes[0]).toMatchObject({ field: 'roleRef.name' });
    expectStatus(await suite.admin('DELETE', `${ROLES}/persons-only`), 200, 'deleting the role');
    expect((await erin('GET', `${PERSONS}/ada`)).status).toBe(403);
  });
});

describe('path tricks do not change what is authorised', () => {
  const frank = basic('frank', 'frank-password');
  beforeAll(async () => {
    await createUser(suite, 'frank');
    await createRole(suite, 'only-ada', [
      { apiGroups: ['example.com'], resources: ['persons'], resourceNames: ['ada'], verbs: ['get'] },
      { apiGroups: ['example.com'], resources: ['persons'], verbs: ['list'] },
    ]);
    await bind(suite, 'frank', 'only-ada');
  });

  it.each([
    ['an encoded slash', `${PERSONS}/ada%2Fstatus`, 400],
    ['a dot-dot segment', `${PERSONS}/bob/../ada`, 400],
    ['an empty segment', `/apis/example.com/v1alpha1//persons/bob`, 400],
    ['an upper-case group', `/apis/EXAMPLE.com/v1alpha1/persons/ada`, 403],
    ['a ;parameter', `${PERSONS}/ada;x=1`, 403],
    ['- as a name', `${PERSONS}/-`, 403],
    ['another name', `${PERSONS}/bob`, 403],
  ])('%s', async (_what, path, status) => {
    expect((await rawGet(frank, path)).status).toBe(status);
  });

  it('a trailing slash addresses the same object', async () => {
    expect((await rawGet(frank, `${PERSONS}/ada/`)).status).toBe(200);
    expect((await rawGet(frank, `${PERSONS}/bob/`)).status).toBe(403);
  });
});

describe('escalation and the super administrator', () => {
  it('refuses to bind, or write, a role with rules the writer does not hold; allows what they hold', async () => {
    const grace = await createUser(suite, 'grace');
    await createRole(suite, 'binder', [
      { apiGroups: [''], resources: ['rolebindings', 'roles'], verbs: ['create'] },
      ...readPersons,
    ]);
    await bind(suite, 'grace', 'binder');
    await createRole(suite, 'writer', [
      { apiGroups: ['example.com'], resources: ['persons'], verbs: ['create', 'delete'] },
    ]);
    await createRole(suite, 'reader', readPersons);
    const binding = (role: string) => ({
      metadata: { name: `grace-gives-${role}` },
      roleRef: { apiGroup: '', kind: 'Role', name: role },
      subjects: [{ kind: 'User', name: 'bob' }],
    });
    const escalation = await grace('POST', BINDINGS, binding('writer'));
    expect(escalation.status).toBe(403);
    // As every 403: the message names user, verb, resource and group, and details the object.
    expect(escalation.body.message).toMatch(
      /^rolebindings "grace-gives-writer" is forbidden: User "grace" cannot create resource "rolebindings" in API group "": role "writer" grants what they do not hold themselves: \[/,
    );
    expect(escalation.body.details).toEqual({ name: 'grace-gives-writer', group: '', kind: 'rolebindings' });
    expect((await grace('POST', BINDINGS, binding('super-role'))).status).toBe(403);
    expect((await grace('POST', BINDINGS, binding('reader'))).status).toBe(201);
    const wide = await grace('POST', ROLES, {
      metadata: { name: 'grace-wide' },
      rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
    });
    expect(wide.status).toBe(403);
    expect(wide.body.message).toMatch(
      /^roles "grace-wide" is forbidden: User "grace" cannot create resource "roles" in API group "": it grants /,
    );
    expect(wide.body.details).toEqual({ name: 'grace-wide', group: '', kind: 'roles' });
    expect((await grace('POST', ROLES, { metadata: { name: 'grace-narrow' }, rules: readPersons })).status).toBe(201);
  });

  it('refuses a status write that would grant what the writer does not hold (the apiserver enforces status)', async () => {
    const henry = await createUser(suite, 'henry');
    await createRole(suite, 'status-writer', [
      { apiGroups: [''], resources: ['roles/status'], verbs: ['update', 'patch'] },
    ]);
    await bind(suite, 'henry', 'status-writer');
    const wide = {
      observedGeneration: 1,
      rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
      uiPermissions: [],
      contributors: [],
    };
    const res = await henry(
      'PATCH',
      `${ROLES}/status-writer/status`,
      { status: wide },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(res.status).toBe(403);
    expect((await suite.admin('GET', `${ROLES}/status-writer`)).body.status?.rules ?? []).not.toContainEqual(
      wide.rules[0],
    );
  });

  it('keeps super-role as built: the admin can neither change nor delete it, nor write its status', async () => {
    const role = (await suite.admin('GET', `${ROLES}/super-role`)).body;
    const edit = await suite.admin('PUT', `${ROLES}/super-role`, { ...role, rules: [] });
    expect(edit.status).toBe(403);
    expect(
      (
        await suite.admin(
          'PATCH',
          `${ROLES}/super-role`,
          { metadata: { labels: { a: 'b' } } },
          { 'Content-Type': 'application/merge-patch+json' },
        )
      ).status,
    ).toBe(403);
    expect((await suite.admin('DELETE', `${ROLES}/super-role`)).status).toBe(403);
    const statusWrite = await suite.admin(
      'PATCH',
      `${ROLES}/super-role/status`,
      { status: { rules: [], uiPermissions: ['nothing'], contributors: [] } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(statusWrite.status).toBe(403);
    expect(statusWrite.body).toMatchObject({ reason: 'Forbidden', details: { name: 'super-role', kind: 'roles' } });
    const after = (await suite.admin('GET', `${ROLES}/super-role`)).body;
    expect(after.rules).toEqual(role.rules);
    expect(after.status).toEqual(role.status);
    expect(after.metadata.version).toBe(role.metadata.version);
    expect(after.metadata.deletionTimestamp).toBeUndefined();
  });

  it('refuses a dependencies annotation that is not a JSON array, naming the key', async () => {
    const res = await suite.admin('POST', ROLES, {
      metadata: { name: 'bad-deps', annotations: { 'rbac.authorization.svc.run/dependencies': 'not json' } },
      rules: [],
    });
    expect(res.status).toBe(422);
    expect(res.body.details.causes[0].field).toContain('rbac.authorization.svc.run/dependencies');
  });
});

describe('watch', () => {
  it('filters a collection watch to the names a resourceNames rule allows', async () => {
    const hank = await createUser(suite, 'hank');
    await createRole(suite, 'watch-ada', [
      { apiGroups: ['example.com'], resources: ['persons'], resourceNames: ['ada'], verbs: ['watch'] },
    ]);
    expect((await hank('GET', `${PERSONS}?watch=true`)).status).toBe(403);
    await bind(suite, 'hank', 'watch-ada');
    const watch = await httpWatch(`${suite.server.url}${PERSONS}?watch=true`, basic('hank', 'hank-password'));
    try {
      expect(watch.status).toBe(200);
      const ada = (await suite.admin('GET', `${PERSONS}/ada`)).body;
      expectStatus(
        await suite.admin('PUT', `${PERSONS}/bob`, {
          ...(await suite.admin('GET', `${PERSONS}/bob`)).body,
          spec: { name: 'BOB', age: 41 },
        }),
        200,
        'bob',
      );
      expectStatus(await suite.admin('PUT', `${PERSONS}/ada`, { ...ada, spec: { name: 'ADA', age: 37 } }), 200, 'ada');
      await waitFor(() => watch.events.events.some((e) => e.type === 'MODIFIED'), { what: 'ada MODIFIED' });
      expect(watch.events.events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([
        'ADDED ada',
        'MODIFIED ada',
      ]);
    } finally {
      watch.close();
    }
  });
});

/** A GET sent with the path exactly as written (fetch would normalise dots and slashes). */
function rawGet(headers: Record<string, string>, path: string): Promise<{ status: number }> {
  const url = new URL(suite.server.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
    req.end();
  });
}
