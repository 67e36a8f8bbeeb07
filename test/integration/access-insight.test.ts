import { bind, BINDINGS, createRole, createUser, expectStatus, USERS, useRbacApi } from '../support/security';

// Access insight over HTTP: who can, what can, the impact of a change; who may ask.
const suite = useRbacApi();
const REVIEWS = '/apis/authorization.svc.run/v1alpha1';
const WHO = `${REVIEWS}/resourceaccessreviews`;
const WHAT = `${REVIEWS}/subjectrulesreviews`;
const IMPACT = `${REVIEWS}/accessimpactreviews`;
const updatePersons = { verbs: ['update'], apiGroups: ['example.com'], resources: ['persons'] };

beforeAll(async () => {
  await createRole(suite, 'person-editor', [
    updatePersons,
    { verbs: ['get'], apiGroups: ['example.com'], resources: ['persons'] },
  ]);
  for (const name of ['ada', 'bob', 'cy', 'dee']) await createUser(suite, name);
  for (const name of ['bob', 'ada', 'cy']) await bind(suite, name, 'person-editor');
  expectStatus(
    await suite.admin(
      'PATCH',
      `${USERS}/cy`,
      { spec: { disabled: true } },
      { 'Content-Type': 'application/merge-patch+json' },
    ),
    200,
    'disabling cy',
  );
});

describe('resourceaccessreviews', () => {
  it('names the users who can, sorted and paged, each with the binding, role, path and rule; disabled users left out', async () => {
    const spec = { verb: 'update', group: 'example.com', resource: 'persons', name: 'p1', limit: 1 };
    const first = await suite.admin('POST', WHO, { spec });
    expect(first.status).toBe(201);
    expect(first.body.kind).toBe('ResourceAccessReview');
    const status = first.body.status;
    expect(status.anonymous).toBe(false);
    expect(status.authenticated).toBe(false);
    expect(status.users).toEqual([
      {
        name: 'ada',
        via: [{ binding: 'ada-person-editor', role: 'person-editor', path: ['person-editor'], rule: updatePersons }],
      },
    ]);
    const names: string[] = ['ada'];
    let token = status.continue;
    while (token) {
      const next = await suite.admin('POST', WHO, { spec: { ...spec, continue: token } });
      expect(next.status).toBe(201);
      names.push(...next.body.status.users.map((u: { name: string }) => u.name));
      token = next.body.status.continue;
    }
    expect(names).toEqual(['admin', 'ada', 'bob'].sort());
    expect(status.total).toBe(3);
  });

  it('sets the flags for a grant to every request instead of listing everyone', async () => {
    const res = await suite.admin('POST', WHO, { spec: { verb: 'get', path: '/healthz' } });
    expect(res.status).toBe(201);
    expect(res.body.status).toMatchObject({ anonymous: true, authenticated: true });
  });

  it('answers 422 for a bad limit and 400 for a continue it did not make', async () => {
    const bad = await suite.admin('POST', WHO, { spec: { verb: 'get', resource: 'persons', limit: -1 } });
    expect([bad.status, bad.body.details.causes[0].field]).toEqual([422, 'spec.limit']);
    const forged = await suite.admin('POST', WHO, { spec: { verb: 'get', resource: 'persons', continue: 'nope' } });
    expect(forged.status).toBe(400);
  });

  it('is refused to a user without create on it, and allowed through access-insight-view', async () => {
    const dee = suite.as({ Authorization: `Basic ${Buffer.from('dee:dee-password').toString('base64')}` });
    const spec = { verb: 'update', group: 'example.com', resource: 'persons' };
    for (const path of [WHO, IMPACT]) expect((await dee('POST', path, { spec })).status).toBe(403);
    expect((await dee('POST', WHAT, { spec: { user: 'ada' } })).status).toBe(403);
    await bind(suite, 'dee', 'access-insight-view');
    const res = await dee('POST', WHO, { spec });
    expect(res.status).toBe(201);
    expect(res.body.status.users.map((u: { name: string }) => u.name)).toEqual(['ada', 'admin', 'bob']);
  });
});

describe('subjectrulesreviews', () => {
  it("lists a user's rules with where each comes from, and never incomplete", async () => {
    const res = await suite.admin('POST', WHAT, { spec: { user: 'bob' } });
    expect(res.status).toBe(201);
    expect(res.body.status.incomplete).toBe(false);
    expect(res.body.status.resourceRules).toContainEqual({
      verbs: ['update'],
      apiGroups: ['example.com'],
      resources: ['persons'],
      via: [{ binding: 'bob-person-editor', role: 'person-editor', path: ['person-editor'] }],
    });
    expect(res.body.status.nonResourceRules).toContainEqual(
      expect.objectContaining({
        nonResourceURLs: expect.arrayContaining(['/healthz']),
        via: [{ role: 'anonymous', path: ['anonymous'] }],
      }),
    );
  });

  it('tells a user with no role what they themself can do, without create on the review, and nothing of others', async () => {
    const eve = await createUser(suite, 'eve');
    for (const spec of [{}, { user: 'eve' }]) {
      const res = await eve('POST', WHAT, { spec });
      expect(res.status).toBe(201);
      expect(res.body.spec.user).toBe('eve');
      const rules = [...res.body.status.resourceRules, ...res.body.status.nonResourceRules];
      // Only what every request and every logged-in user holds: no binding of eve's own.
      expect(rules.length).toBeGreaterThan(0);
      const vias: { binding?: string }[] = rules.flatMap((r: { via: { binding?: string }[] }) => r.via);
      expect(vias.filter((v) => v.binding)).toEqual([]);
      expect(res.body.status.resourceRules).not.toContainEqual(expect.objectContaining({ resources: ['persons'] }));
    }
    const other = await eve('POST', WHAT, { spec: { user: 'bob' } });
    expect(other.status).toBe(403);
    expect(other.body.message).toContain('needs create on subjectrulesreviews');
    expect(JSON.stringify(other.body)).not.toContain('person-editor');
  });

  it('is refused to the anonymous', async () => {
    expect((await suite.as({})('POST', WHAT, { spec: {} })).status).toBe(401);
  });
});

describe('accessimpactreviews', () => {
  it('shows who would gain and lose what, before anything is written', async () => {
    const object = {
      apiVersion: 'v1alpha1',
      kind: 'Role',
      metadata: { name: 'person-editor' },
      rules: [{ verbs: ['get', 'delete'], apiGroups: ['example.com'], resources: ['persons'] }],
    };
    const res = await suite.admin('POST', IMPACT, { spec: { operation: 'update', object } });
    expect(res.status).toBe(201);
    const deletePersons = { verbs: ['delete'], apiGroups: ['example.com'], resources: ['persons'] };
    expect(res.body.status.usersAffected).toBe(2);
    expect(res.body.status.changes).toEqual([
      {
        user: 'ada',
        gained: [deletePersons],
        lost: [updatePersons],
        uiPermissionsGained: [],
        uiPermissionsLost: [],
      },
      expect.objectContaining({ user: 'bob' }),
    ]);
    expect(res.body.status.anonymousGained).toEqual([]);
    // Nothing was written.
    const stored = await suite.admin('GET', '/api/v1alpha1/roles/person-editor');
    expect(stored.body.rules).toContainEqual(updatePersons);
  });

  it('warns when an API would become public', async () => {
    const object = {
      kind: 'Role',
      metadata: { name: 'public-persons', labels: { 'rbac.authorization.svc.run/aggregate-to-anonymous': 'true' } },
      rules: [{ verbs: ['list'], apiGroups: ['example.com'], resources: ['persons'] }],
    };
    const res = await suite.admin('POST', IMPACT, { spec: { operation: 'create', object } });
    expect(res.status).toBe(201);
    expect(res.body.status.anonymousGained).toEqual([
      { verbs: ['list'], apiGroups: ['example.com'], resources: ['persons'] },
    ]);
  });

  it('reviews a binding, a role assignment and disabling a user', async () => {
    const binding = {
      kind: 'RoleBinding',
      metadata: { name: 'dee-person-editor' },
      roleRef: { apiGroup: '', kind: 'Role', name: 'person-editor' },
      subjects: [{ kind: 'User', apiGroup: '', name: 'dee' }],
    };
    const bound = await suite.admin('POST', IMPACT, { spec: { operation: 'create', object: binding } });
    expect(bound.body.status.changes.map((c: { user: string }) => c.user)).toEqual(['dee']);
    const assigned = await suite.admin('POST', IMPACT, {
      spec: { operation: 'update', userPermissions: { user: 'bob', roles: [] } },
    });
    expect(assigned.body.status.changes).toEqual([expect.objectContaining({ user: 'bob', gained: [] })]);
    expect(assigned.body.status.changes[0].lost.length).toBeGreaterThan(0);
    const disabled = await suite.admin('POST', IMPACT, {
      spec: { operation: 'update', object: { kind: 'User', metadata: { name: 'ada' }, spec: { disabled: true } } },
    });
    expect(disabled.body.status.changes.map((c: { user: string }) => c.user)).toEqual(['ada']);
    expect((await suite.admin('GET', `${BINDINGS}/dee-person-editor`)).status).toBe(404);
  });

  it('answers 422 naming what is wrong with the proposed change', async () => {
    const res = await suite.admin('POST', IMPACT, { spec: { operation: 'rename', object: {} } });
    expect([res.status, res.body.details.causes[0].field]).toEqual([422, 'spec.operation']);
    const noName = await suite.admin('POST', IMPACT, {
      spec: { operation: 'create', object: { kind: 'Role', metadata: {} } },
    });
    expect([noName.status, noName.body.details.causes[0].field]).toEqual([422, 'spec.object.metadata.name']);
    const badRules = await suite.admin('POST', IMPACT, {
      spec: { operation: 'create', object: { kind: 'Role', metadata: { name: 'x' }, rules: [{ verbs: 'get' }] } },
    });
    expect([badRules.status, badRules.body.details.causes[0].field]).toEqual([422, 'spec.object.rules']);
  });
});

describe('a 403', () => {
  it('names the nearest miss: the closest rules and what failed, and the role templates that would allow', async () => {
    const deletePersons = { verbs: ['delete'], apiGroups: ['example.com'], resources: ['persons'] };
    await createRole(suite, 'person-deleter', [deletePersons], { labels: { 'svc.run/role-template': 'true' } });
    const bob = suite.as({ Authorization: `Basic ${Buffer.from('bob:bob-password').toString('base64')}` });
    const res = await bob('DELETE', '/apis/example.com/v1alpha1/persons/p1');
    expect(res.status).toBe(403);
    // The built-in console template models-manage (every resource) would allow it too.
    expect(res.body.details.templates).toEqual(expect.arrayContaining(['person-deleter']));
    expect(res.body.details.templates).not.toContain('person-editor');
    expect(res.body.details.trace).toContainEqual({
      kind: 'Rule',
      name: 'update persons in group example.com',
      message: 'in Role "person-editor": verb "delete" not in [update]',
    });
  });
});
