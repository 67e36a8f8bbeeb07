import { Readable } from 'node:stream';
import { runSvcctl } from '../../pkg/cli';
import { PERSONS, person } from '../support/person';
import { httpWatch } from '../support/watch-client';
import {
  ACCESS_REVIEWS,
  basic,
  bind,
  createRole,
  createToken,
  createUser,
  expectStatus,
  ROLES,
  useRbacApi,
} from '../support/security';
import type { ApiClient } from '../support/apiserver';

// Conditional rules ("own objects"): a rule with `where` allows only the objects its selectors match, with
// `${user.name}` the caller's name — decided on the stored object and on the object as it would be stored, merged
// into lists and watches. The same on the Redis store (the default) and the memory store.

const MERGE = { 'Content-Type': 'application/merge-patch+json' };

const OWN_PERSONS = {
  apiGroups: ['example.com'],
  resources: ['persons'],
  verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'],
  where: { fieldSelector: 'spec.name=${user.name}' },
};

/** A person owned (`spec.name`) by `owner`. */
const owned = (name: string, owner: string, labels?: Record<string, string>) => person(name, { name: owner }, labels);

describe.each([
  ['the Redis store', {}],
  ['the memory store', { store: 'memory://' }],
])('conditional rules on %s', (_store, config) => {
  const suite = useRbacApi(config);
  let ada: ApiClient;

  beforeAll(async () => {
    ada = await createUser(suite, 'ada');
    await createRole(suite, 'own-persons', [OWN_PERSONS]);
    await bind(suite, 'ada', 'own-persons');
    for (const [name, owner] of [
      ['p1', 'ada'],
      ['p2', 'bob'],
      ['p3', 'ada'],
      ['p4', 'eve'],
    ])
      expectStatus(await suite.admin('POST', PERSONS, owned(name, owner)), 201, name);
  });

  it('refuses a condition on a field the model does not index, naming the rule, the field and the model', async () => {
    const res = await suite.admin('POST', ROLES, {
      metadata: { name: 'by-age' },
      rules: [{ ...OWN_PERSONS, where: { fieldSelector: 'spec.age=30' } }],
    });
    expect(res.status).toBe(422);
    expect(res.body.details.causes).toEqual([
      expect.objectContaining({ field: 'rules[0].where', message: expect.stringContaining('"spec.age"') }),
    ]);
    expect(res.body.details.causes[0].message).toContain('persons.example.com');
  });

  it.each([
    ['an unknown variable', { fieldSelector: 'spec.name=${user.email}' }],
    ['a selector that does not parse', { labelSelector: 'team in (' }],
    ['a condition that requires nothing', {}],
    ['a field name made of the variable', { fieldSelector: '${user.name}=x' }],
    ['an unknown key', { fieldSelector: 'spec.name=a', owner: 'x' }],
  ])('refuses %s with 422', async (_what, where) => {
    const res = await suite.admin('POST', ROLES, {
      metadata: { name: 'bad-where' },
      rules: [{ ...OWN_PERSONS, where }],
    });
    expect(res.status).toBe(422);
  });

  it('lists only the objects the condition matches, with an exact total', async () => {
    const res = await ada('GET', PERSONS);
    expect(res.status).toBe(200);
    expect(res.body.items.map((p: any) => p.metadata.name).sort()).toEqual(['p1', 'p3']);
    expect(res.body.total).toBe(2);
    const page = await ada('GET', `${PERSONS}?limit=1`);
    expect(page.body.items).toHaveLength(1);
    expect(page.body.metadata.remainingItemCount).toBe(1);
    const narrowed = await ada('GET', `${PERSONS}?fieldSelector=spec.name=bob`);
    expect(narrowed.body.items).toEqual([]);
  });

  it('gets its own objects, and answers 404 for others (their existence is not revealed)', async () => {
    expect((await ada('GET', `${PERSONS}/p1`)).status).toBe(200);
    const other = await ada('GET', `${PERSONS}/p2`);
    expect(other.status).toBe(404);
    expect((await ada('GET', `${PERSONS}/no-such`)).status).toBe(404);
  });

  it('creates only what the condition matches as stored', async () => {
    expect((await ada('POST', PERSONS, owned('ada-new', 'ada'))).status).toBe(201);
    const foreign = await ada('POST', PERSONS, owned('ada-for-bob', 'bob'));
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toContain('only where spec.name=ada');
    expect((await suite.admin('GET', `${PERSONS}/ada-for-bob`)).status).toBe(404);
  });

  it('updates its own objects, never moves one out of its scope, and cannot touch others', async () => {
    const mine = (await ada('GET', `${PERSONS}/p3`)).body;
    expect((await ada('PUT', `${PERSONS}/p3`, { ...mine, spec: { ...mine.spec, age: 44 } })).status).toBe(200);
    const current = (await ada('GET', `${PERSONS}/p3`)).body;
    const away = await ada('PUT', `${PERSONS}/p3`, { ...current, spec: { ...current.spec, name: 'bob' } });
    expect(away.status).toBe(403);
    const patchAway = await ada('PATCH', `${PERSONS}/p3`, { spec: { name: 'eve' } }, MERGE);
    expect(patchAway.status).toBe(403);
    expect((await suite.admin('GET', `${PERSONS}/p3`)).body.spec.name).toBe('ada');
    const theirs = (await suite.admin('GET', `${PERSONS}/p2`)).body;
    const into = await ada('PUT', `${PERSONS}/p2`, { ...theirs, spec: { ...theirs.spec, name: 'ada' } });
    expect(into.status).toBe(404);
    expect((await ada('PATCH', `${PERSONS}/p2`, { spec: { age: 1 } }, MERGE)).status).toBe(404);
    expect((await suite.admin('GET', `${PERSONS}/p2`)).body.spec).toMatchObject({ name: 'bob', age: 30 });
  });

  it('deletes only its own objects, one by one or as a collection', async () => {
    expect((await ada('DELETE', `${PERSONS}/p4`)).status).toBe(404);
    expectStatus(await suite.admin('POST', PERSONS, owned('ada-tmp', 'ada', { tmp: 'yes' })), 201, 'ada-tmp');
    expectStatus(await suite.admin('POST', PERSONS, owned('bob-tmp', 'bob', { tmp: 'yes' })), 201, 'bob-tmp');
    const res = await ada('DELETE', `${PERSONS}?labelSelector=tmp=yes`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((p: any) => p.metadata.name)).toEqual(['ada-tmp']);
    expect((await suite.admin('GET', `${PERSONS}/bob-tmp`)).status).toBe(200);
    expect((await suite.admin('GET', `${PERSONS}/p4`)).status).toBe(200);
  });

  it('watches only matching objects: ADDED when one enters the view, DELETED when it leaves', async () => {
    const visible = (await ada('GET', PERSONS)).body.items.map((p: any) => p.metadata.name).sort();
    expect(visible).toEqual(expect.arrayContaining(['ada-new', 'p1', 'p3']));
    const watch = await httpWatch(`${suite.server.url}${PERSONS}?watch=true`, basic('ada', 'ada-password'));
    try {
      expect(watch.status).toBe(200);
      const initial = await watch.events.take(visible.length);
      expect(initial.map((e) => e.object.metadata.name).sort()).toEqual(visible);
      expectStatus(await suite.admin('POST', PERSONS, owned('w-bob', 'bob')), 201, 'w-bob');
      expectStatus(await suite.admin('POST', PERSONS, owned('w-ada', 'ada')), 201, 'w-ada');
      const bob = (await suite.admin('GET', `${PERSONS}/w-bob`)).body;
      expectStatus(
        await suite.admin('PUT', `${PERSONS}/w-bob`, { ...bob, spec: { ...bob.spec, name: 'ada' } }),
        200,
        'in',
      );
      const p1 = (await suite.admin('GET', `${PERSONS}/p1`)).body;
      expectStatus(await suite.admin('PUT', `${PERSONS}/p1`, { ...p1, spec: { ...p1.spec, name: 'eve' } }), 200, 'out');
      const events = (await watch.events.take(visible.length + 3)).slice(visible.length);
      expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([
        'ADDED w-ada',
        'ADDED w-bob',
        'DELETED p1',
      ]);
    } finally {
      watch.close();
    }
  });

  it('lets a holder of a conditional rule grant it, or a narrower one, but never the rule without it', async () => {
    const carl = await createUser(suite, 'carl');
    await createRole(suite, 'role-writer', [{ apiGroups: [''], resources: ['roles'], verbs: ['create'] }]);
    await bind(suite, 'carl', 'role-writer');
    await bind(suite, 'carl', 'own-persons');
    const write = (name: string, rule: Record<string, unknown>) =>
      carl('POST', ROLES, { metadata: { name }, rules: [rule] });
    expect((await write('same', OWN_PERSONS)).status).toBe(201);
    const narrower = { ...OWN_PERSONS, where: { ...OWN_PERSONS.where, labelSelector: 'team=a' } };
    expect((await write('narrower', narrower)).status).toBe(201);
    const { where: _dropped, ...unconditional } = OWN_PERSONS;
    expect((await write('wider', unconditional)).status).toBe(403);
    const otherField = { ...OWN_PERSONS, where: { fieldSelector: 'spec.tags=${user.name}' } };
    expect((await write('other', otherField)).status).toBe(403);
  });

  it('answers access reviews: with a name on the stored object, without one with the conditions', async () => {
    const review = (resourceAttributes: Record<string, string>) =>
      ada('POST', ACCESS_REVIEWS, {
        spec: { verb: 'get', group: 'example.com', resource: 'persons', ...resourceAttributes },
      });
    const list = await review({ verb: 'list' });
    expect(list.status).toBe(201);
    expect(list.body.status).toMatchObject({ allowed: true, conditions: [{ fieldSelector: 'spec.name=ada' }] });
    expect((await review({ name: 'p3' })).body.status.allowed).toBe(true);
    const theirs = (await review({ name: 'p2' })).body.status;
    const missing = (await review({ name: 'no-such' })).body.status;
    expect(theirs.allowed).toBe(false);
    expect(missing.allowed).toBe(false);
    expect(missing.reason).toBe(theirs.reason.replace('"p2"', '"no-such"'));
    const kubectl = await ada('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { verb: 'list', group: 'example.com', resource: 'persons' } },
    });
    expect(kubectl.body.status).toEqual({ allowed: false, reason: 'only for objects where spec.name=ada' });
  });

  it('ends a watch with 410 when the roles of its caller change what it may show', async () => {
    await createUser(suite, 'dora');
    await bind(suite, 'dora', 'own-persons');
    const watch = await httpWatch(`${suite.server.url}${PERSONS}?watch=true`, basic('dora', 'dora-password'));
    try {
      expect(watch.status).toBe(200);
      await createRole(suite, 'team-persons', [{ ...OWN_PERSONS, where: { labelSelector: 'team=dora' } }]);
      await bind(suite, 'dora', 'team-persons');
      const [end] = await watch.events.take(1);
      expect(end.type).toBe('ERROR');
      expect(end.object).toMatchObject({ code: 410, reason: 'Expired' });
      await watch.events.untilEnded();
    } finally {
      watch.close();
    }
  });

  it('has svcctl auth can-i say where a conditional grant holds', async () => {
    const { token } = await createToken(ada);
    const out: string[] = [];
    const canI = (...args: string[]) =>
      runSvcctl(['auth', 'can-i', ...args], {
        stdout: (t) => out.push(t),
        stderr: (t) => out.push(t),
        stdin: Readable.from([]),
        env: { SVC_SERVER: suite.server.url, SVC_TOKEN: token },
        home: '/nonexistent',
      });
    expect(await canI('list', 'persons.example.com')).toBe(0);
    expect(await canI('get', 'persons.example.com', 'p2')).toBe(1);
    expect(out).toEqual(['yes (where spec.name=ada)\n', 'no\n']);
  });

  it('keeps a condition on a model not served yet, and lets it grant nothing while the model lacks its field', async () => {
    const WIDGETS = '/apis/example.com/v1alpha1/widgets';
    const notOwner = { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['list', 'get'] };
    await createRole(suite, 'widgets-not-bobs', [{ ...notOwner, where: { fieldSelector: 'spec.owner!=bob' } }]);
    await bind(suite, 'ada', 'widgets-not-bobs');
    await suite.server.schemes.register(
      { group: 'example.com', version: 'v1alpha1', kind: 'Widget', singular: 'widget', plural: 'widgets' },
      undefined,
      { platform: true },
    );
    expectStatus(await suite.admin('POST', WIDGETS, { metadata: { name: 'w1' }, spec: { owner: 'bob' } }), 201, 'w1');
    expect((await ada('GET', WIDGETS)).status).toBe(403);
    expect((await ada('GET', `${WIDGETS}/w1`)).status).toBe(403);
  });

  it('lists who can: conditional holders with their conditions, or decided on the object a question names', async () => {
    const whoCan = async (spec: Record<string, string>) => {
      const res = await suite.admin('POST', '/apis/authorization.svc.run/v1alpha1/resourceaccessreviews', {
        spec: { group: 'example.com', resource: 'persons', ...spec },
      });
      expectStatus(res, 201, 'who-can');
      return res.body.status as { users: { name: string; conditions?: unknown[] }[]; total: number };
    };
    const listers = await whoCan({ verb: 'list' });
    expect(listers.users.find((u) => u.name === 'ada')?.conditions).toEqual([{ fieldSelector: 'spec.name=ada' }]);
    const ofP3 = await whoCan({ verb: 'get', name: 'p3' });
    expect(ofP3.users.find((u) => u.name === 'ada')).toEqual(
      expect.not.objectContaining({ conditions: expect.anything() }),
    );
    const ofP2 = await whoCan({ verb: 'get', name: 'p2' });
    expect(ofP2.users.map((u) => u.name)).not.toContain('ada');
    expect(ofP2.total).toBe(ofP2.users.length);
    expect(ofP3.users.map((u) => u.name)).toContain('admin');
  });
});
