import { MODELS, personModel, usePersonsApi, person, PERSONS } from '../support/person';
import { expectStatus } from '../support/security';
import { waitFor } from '../support/wait-for';

const suite = usePersonsApi();

describe('create', () => {
  it('answers 201 with Location and the stored object, server fields filled', async () => {
    const res = await suite.api('POST', PERSONS, {
      ...person('c-ada'),
      metadata: { name: 'c-ada', uid: 'mine', version: 7 },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${PERSONS}/c-ada`);
    expect(res.body.metadata).toMatchObject({ name: 'c-ada', version: 1, generation: 1 });
    expect(res.body.metadata.uid).not.toBe('mine');
    expect(Number.isNaN(Date.parse(res.body.metadata.creationTimestamp))).toBe(false);
    expect(typeof res.body.metadata.resourceVersion).toBe('string');
    expect((await suite.api('GET', `${PERSONS}/c-ada`)).body).toEqual(res.body);
  });

  it('fills apiVersion and kind when the body leaves them out, and refuses wrong ones', async () => {
    const ok = await suite.api('POST', PERSONS, { metadata: { name: 'c-bare' }, spec: { name: 'x' } });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ apiVersion: 'example.com/v1alpha1', kind: 'Person' });
    const wrongKind = await suite.api('POST', PERSONS, { ...person('c-wrong'), kind: 'Dog' });
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    const wrongVersion = await suite.api('POST', PERSONS, { ...person('c-wrong'), apiVersion: 'example.com/v2' });
    expect(wrongVersion.status).toBe(400);
    expect((await suite.api('GET', `${PERSONS}/c-wrong`)).status).toBe(404);
  });

  it('accepts YAML bodies', async () => {
    const yaml =
      'apiVersion: example.com/v1alpha1\nkind: Person\nmetadata:\n  name: c-yaml\nspec:\n  name: Yaml\n  age: 3\n';
    const res = await suite.api('POST', PERSONS, yaml, { 'Content-Type': 'application/yaml' });
    expect(res.status).toBe(201);
    expect(res.body.spec).toEqual({ name: 'Yaml', age: 3 });
  });

  it('generates a name from generateName', async () => {
    const res = await suite.api('POST', PERSONS, { ...person('x'), metadata: { generateName: 'gen-' } });
    expect(res.status).toBe(201);
    expect(res.body.metadata.name).toMatch(/^gen-[a-z0-9]{5}$/);
  });

  it('cuts a generateName longer than 58 characters to its first 58, as Kubernetes: the name is at most 63', async () => {
    const prefix = `${'g'.repeat(57)}-${'h'.repeat(190)}`;
    const res = await suite.api('POST', PERSONS, { ...person('x'), metadata: { generateName: prefix } });
    expect(res.status).toBe(201);
    expect(res.body.metadata.name).toMatch(new RegExp(`^${'g'.repeat(57)}-[a-z0-9]{5}$`));
    const bad = await suite.api('POST', PERSONS, { ...person('x'), metadata: { generateName: `${prefix}_` } });
    expect(bad.status).toBe(422);
    expect(bad.body.details.causes).toEqual([expect.objectContaining({ field: 'metadata.generateName' })]);
  });

  it('answers 409 AlreadyExists for a taken name', async () => {
    await suite.api('POST', PERSONS, person('c-dup'));
    const res = await suite.api('POST', PERSONS, person('c-dup'));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      reason: 'AlreadyExists',
      details: { name: 'c-dup', group: 'example.com', kind: 'persons' },
    });
  });

  it('with dryRun=All answers 201 and stores nothing', async () => {
    const res = await suite.api('POST', `${PERSONS}?dryRun=All`, person('c-dry'));
    expect(res.status).toBe(201);
    expect(res.body.metadata.name).toBe('c-dry');
    expect(res.body.metadata.resourceVersion).toBeUndefined();
    expect((await suite.api('GET', `${PERSONS}/c-dry`)).status).toBe(404);
  });

  it('answers a dry-run update with the change and the stored lock tokens, so that it can be sent back', async () => {
    const created = (await suite.api('POST', PERSONS, person('c-dry-update'))).body;
    const dry = await suite.api(
      'PATCH',
      `${PERSONS}/c-dry-update?dryRun=All`,
      { spec: { age: 77 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(dry.status).toBe(200);
    expect(dry.body.spec.age).toBe(77);
    expect(dry.body.metadata).toMatchObject({ resourceVersion: created.metadata.resourceVersion, version: 1 });
    const sentBack = await suite.api('PUT', `${PERSONS}/c-dry-update`, dry.body);
    expect(sentBack.status).toBe(200);
    expect(sentBack.body.metadata.version).toBe(2);
  });

  it('ignores status on create, as Kubernetes does', async () => {
    const res = await suite.api('POST', PERSONS, { ...person('c-status'), status: { phase: 'Done' } });
    expect(res.status).toBe(201);
    expect(res.body.status).toBeUndefined();
  });

  it("starts a new object with the default its schema gives status, in the create's one write", async () => {
    const model = personModel();
    model.metadata.name = 'tasks.example.com';
    model.spec.names = { kind: 'Task', singular: 'task', plural: 'tasks' };
    model.spec.schema.properties.status.default = { phase: 'New' };
    delete model.spec.indexes;
    expectStatus(await suite.api('POST', MODELS, model), 201, 'creating the Task model');
    const tasks = '/apis/example.com/v1alpha1/tasks';
    await waitFor(async () => (await suite.api('GET', tasks)).status === 200, { what: 'the tasks API to be served' });
    const body = { metadata: { name: 'c-task' }, spec: { name: 'Task' }, status: { phase: 'Done' } };
    const res = await suite.api('POST', tasks, body);
    expect(res.status).toBe(201);
    expect(res.body.status).toEqual({ phase: 'New' });
    expect(res.body.metadata.version).toBe(1);
    expect((await suite.api('GET', `${tasks}/c-task`)).body).toEqual(res.body);
  });

  it('is not POST to a name: 405', async () => {
    const res = await suite.api('POST', `${PERSONS}/c-ada`, person('c-ada'));
    expect(res.status).toBe(405);
    expect(res.body.reason).toBe('MethodNotAllowed');
  });
});

describe('validation', () => {
  it('reports every failing field as 422 Invalid causes', async () => {
    const res = await suite.api('POST', PERSONS, {
      ...person('v-bad'),
      spec: { name: 'x'.repeat(101), age: 151, gender: 'OTHER' },
    });
    expect(res.status).toBe(422);
    expect(res.body.reason).toBe('Invalid');
    const fields = res.body.details.causes.map((c: { field: string }) => c.field).sort();
    expect(fields).toEqual(['spec.age', 'spec.gender', 'spec.name']);
  });

  it('requires spec', async () => {
    const res = await suite.api('POST', PERSONS, { metadata: { name: 'v-nospec' } });
    expect(res.status).toBe(422);
    expect(res.body.details.causes.map((c: { field: string }) => c.field)).toContain('spec');
  });

  it('validates a nested Person through $ref "#"', async () => {
    const res = await suite.api('POST', PERSONS, person('v-nested', { otherPerson: { spec: { age: -1 } } }));
    expect(res.status).toBe(422);
    expect(res.body.details.causes.map((c: { field: string }) => c.field)).toContain('spec.otherPerson.spec.age');
  });

  it('prunes unknown fields with a Warning, or refuses them with fieldValidation=Strict', async () => {
    const warned = await suite.api('POST', PERSONS, person('v-unknown', { shoeSize: 42 }));
    expect(warned.status).toBe(201);
    expect(warned.body.spec.shoeSize).toBeUndefined();
    expect(warned.headers.get('warning')).toContain('unknown field \\"spec.shoeSize\\"');
    const strict = await suite.api('POST', `${PERSONS}?fieldValidation=Strict`, person('v-strict', { shoeSize: 42 }));
    expect(strict.status).toBe(422);
    expect((await suite.api('GET', `${PERSONS}/v-strict`)).status).toBe(404);
  });

  it('prunes unknown metadata fields on every write, with a Warning, and refuses them with Strict', async () => {
    const merge = { 'Content-Type': 'application/merge-patch+json' };
    const warning = '299 - "unknown field \\"metadata.foo\\""';
    const ownerReferences = [{ apiVersion: 'v1', kind: 'Thing', name: 'owner', uid: 'u1' }];
    const created = await suite.api('POST', PERSONS, {
      ...person('v-meta'),
      metadata: { name: 'v-meta', foo: 1, ownerReferences },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('warning')).toBe(warning);
    expect(created.body.metadata.foo).toBeUndefined();
    expect(created.body.metadata.ownerReferences).toEqual(ownerReferences);
    const path = `${PERSONS}/v-meta`;
    const withFoo = (object: any) => ({ ...object, metadata: { ...object.metadata, foo: { x: 1 } } });
    const writes: [string, string, (current: any) => unknown, Record<string, string>?][] = [
      ['PUT', path, (current) => withFoo({ ...current, spec: { ...current.spec, age: 40 } })],
      ['PUT', `${path}/status`, (current) => withFoo({ ...current, status: { phase: 'A' } })],
      ['PATCH', path, () => ({ metadata: { foo: 1 }, spec: { age: 2 } }), merge],
      ['PATCH', `${path}/status`, () => ({ metadata: { foo: 1 }, status: { phase: 'B' } }), merge],
    ];
    for (const [method, at, body, headers] of writes) {
      const current = (await suite.api('GET', path)).body;
      const strict = await suite.api(method, `${at}?fieldValidation=Strict`, body(current), headers);
      expect([method, at, strict.status]).toEqual([method, at, 422]);
      expect(strict.body.details.causes).toEqual([expect.objectContaining({ field: 'metadata.foo' })]);
      expect((await suite.api('GET', path)).body).toEqual(current);
      const warned = await suite.api(method, at, body(current), headers);
      expect([method, at, warned.status, warned.headers.get('warning')]).toEqual([method, at, 200, warning]);
      expect(warned.body.metadata.foo).toBeUndefined();
      expect(warned.body.metadata.version).toBe(current.metadata.version + 1);
    }
  });

  it('refuses bad names and labels with 422', async () => {
    for (const name of ['Upper', 'x'.repeat(254), '-lead', 'a..b']) {
      const res = await suite.api('POST', PERSONS, person(name));
      expect([name, res.status]).toEqual([name, 422]);
    }
    const labels = await suite.api('POST', PERSONS, person('v-labels', {}, { 'a/b/c': 'x', ['k'.repeat(64)]: 'y' }));
    expect(labels.status).toBe(422);
    expect(labels.body.details.causes.length).toBeGreaterThanOrEqual(2);
  });
});

describe('update', () => {
  it('needs metadata.version or resourceVersion (422), and a stale one is 409', async () => {
    const created = (await suite.api('POST', PERSONS, person('u-ada'))).body;
    const bare = await suite.api('PUT', `${PERSONS}/u-ada`, { ...person('u-ada'), metadata: { name: 'u-ada' } });
    expect(bare.status).toBe(422);
    const updated = await suite.api('PUT', `${PERSONS}/u-ada`, { ...created, spec: { ...created.spec, age: 31 } });
    expect(updated.status).toBe(200);
    expect(updated.body.metadata.version).toBe(2);
    expect(updated.body.metadata.generation).toBe(2);
    const stale = await suite.api('PUT', `${PERSONS}/u-ada`, { ...created, spec: { ...created.spec, age: 32 } });
    expect(stale.status).toBe(409);
    expect(stale.body.reason).toBe('Conflict');
    const byVersion = await suite.api('PUT', `${PERSONS}/u-ada`, {
      ...person('u-ada', { age: 33 }),
      metadata: { name: 'u-ada', version: 2 },
    });
    expect(byVersion.status).toBe(200);
    expect(byVersion.body.spec.age).toBe(33);
  });

  it('refuses a body whose name differs from the path, or that has none (400, as Kubernetes)', async () => {
    const created = (await suite.api('POST', PERSONS, person('u-name'))).body;
    const other = await suite.api('PUT', `${PERSONS}/u-name`, {
      ...created,
      metadata: { ...created.metadata, name: 'other' },
    });
    expect(other.status).toBe(400);
    expect(other.body.message).toBe('the name of the object (other) does not match the name on the URL (u-name)');
    const { version } = created.metadata;
    for (const path of [`${PERSONS}/u-name`, `${PERSONS}/u-name/status`]) {
      const nameless = await suite.api('PUT', path, { metadata: { version }, spec: { name: 'x' }, status: {} });
      expect([path, nameless.status, nameless.body.reason]).toEqual([path, 400, 'BadRequest']);
      expect(nameless.body.message).toBe('the name of the object () does not match the name on the URL (u-name)');
    }
    expect((await suite.api('GET', `${PERSONS}/u-name`)).body).toEqual(created);
  });

  it('leaves status alone on the main endpoint; /status writes only status', async () => {
    const created = (await suite.api('POST', PERSONS, person('u-status'))).body;
    const withStatus = await suite.api('PUT', `${PERSONS}/u-status/status`, {
      ...created,
      spec: { name: 'ignored' },
      status: { phase: 'Ready' },
    });
    expect(withStatus.status).toBe(200);
    expect(withStatus.body.status).toEqual({ phase: 'Ready' });
    expect(withStatus.body.spec.name).toBe('U-STATUS');
    expect(withStatus.body.metadata.generation).toBe(1);
    const main = await suite.api('PUT', `${PERSONS}/u-status`, { ...withStatus.body, status: { phase: 'Hacked' } });
    expect(main.status).toBe(200);
    expect(main.body.status).toEqual({ phase: 'Ready' });
    const patched = await suite.api(
      'PATCH',
      `${PERSONS}/u-status/status`,
      { status: { message: 'hi' } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(patched.body.status).toEqual({ phase: 'Ready', message: 'hi' });
  });

  it('reads a metadata.uid as a precondition: another uid is 409 Conflict and writes nothing; none asks nothing', async () => {
    const created = (await suite.api('POST', PERSONS, person('u-uid'))).body;
    for (const path of [`${PERSONS}/u-uid`, `${PERSONS}/u-uid/status`]) {
      const foreign = await suite.api('PUT', path, {
        ...created,
        metadata: { ...created.metadata, uid: 'not-the-uid' },
        spec: { ...created.spec, age: 50 },
        status: { phase: 'Foreign' },
      });
      expect([path, foreign.status, foreign.body.reason]).toEqual([path, 409, 'Conflict']);
      expect(foreign.body.message).toContain('not-the-uid');
    }
    expect((await suite.api('GET', `${PERSONS}/u-uid`)).body).toEqual(created);
    const { uid: _uid, ...withoutUid } = created.metadata;
    const absent = await suite.api('PUT', `${PERSONS}/u-uid`, {
      ...created,
      metadata: withoutUid,
      spec: { ...created.spec, age: 51 },
    });
    expect(absent.status).toBe(200);
    const same = await suite.api('PUT', `${PERSONS}/u-uid`, { ...absent.body, spec: { ...created.spec, age: 52 } });
    expect(same.status).toBe(200);
    expect(same.body.metadata.uid).toBe(created.metadata.uid);
  });

  it('answers 404 for a missing object', async () => {
    const res = await suite.api('PUT', `${PERSONS}/nobody`, {
      ...person('nobody'),
      metadata: { name: 'nobody', version: 1 },
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('persons.example.com "nobody" not found');
  });
});

describe('patch', () => {
  it('applies merge patches unconditionally and JSON patches with test', async () => {
    await suite.api('POST', PERSONS, person('p-ada', { tags: ['a'] }));
    const merged = await suite.api(
      'PATCH',
      `${PERSONS}/p-ada`,
      { spec: { age: 40 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(merged.status).toBe(200);
    expect(merged.body.spec).toMatchObject({ age: 40, tags: ['a'] });
    const json = await suite.api(
      'PATCH',
      `${PERSONS}/p-ada`,
      [
        { op: 'test', path: '/spec/age', value: 40 },
        { op: 'add', path: '/spec/tags/-', value: 'b' },
      ],
      { 'Content-Type': 'application/json-patch+json' },
    );
    expect(json.status).toBe(200);
    expect(json.body.spec.tags).toEqual(['a', 'b']);
    const failed = await suite.api('PATCH', `${PERSONS}/p-ada`, [{ op: 'test', path: '/spec/age', value: 1 }], {
      'Content-Type': 'application/json-patch+json',
    });
    expect(failed.status).toBe(422);
    const missing = await suite.api(
      'PATCH',
      `${PERSONS}/p-ada`,
      [{ op: 'replace', path: '/spec/nothing/here', value: 1 }],
      { 'Content-Type': 'application/json-patch+json' },
    );
    expect(missing.status).toBe(422);
  });

  it('treats strategic merge as merge, refuses unknown patch types with 415', async () => {
    await suite.api('POST', PERSONS, person('p-smp'));
    const smp = await suite.api(
      'PATCH',
      `${PERSONS}/p-smp`,
      { spec: { age: 41 } },
      { 'Content-Type': 'application/strategic-merge-patch+json' },
    );
    expect(smp.body.spec.age).toBe(41);
    const unknown = await suite.api('PATCH', `${PERSONS}/p-smp`, 'x', { 'Content-Type': 'text/plain' });
    expect(unknown.status).toBe(415);
    expect(unknown.body.reason).toBe('UnsupportedMediaType');
  });

  it('is conditional when the patch carries a stale version', async () => {
    await suite.api('POST', PERSONS, person('p-cond'));
    const res = await suite.api(
      'PATCH',
      `${PERSONS}/p-cond`,
      { metadata: { version: 99 }, spec: { age: 1 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(res.status).toBe(409);
  });

  it('a patch that changes metadata.uid is a failed precondition: 409 Conflict, nothing written', async () => {
    const created = (await suite.api('POST', PERSONS, person('uid-p'))).body;
    const jsonPatch = { 'Content-Type': 'application/json-patch+json' };
    const ops = [
      { op: 'replace', path: '/metadata/uid', value: 'not-the-uid' },
      { op: 'replace', path: '/spec/age', value: 9 },
    ];
    const res = await suite.api('PATCH', `${PERSONS}/uid-p`, ops, jsonPatch);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'Conflict', code: 409 });
    expect(res.body.message).toContain('not-the-uid');
    const merge = await suite.api(
      'PATCH',
      `${PERSONS}/uid-p`,
      { metadata: { uid: 'other' }, spec: { age: 9 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(merge.status).toBe(409);
    const after = (await suite.api('GET', `${PERSONS}/uid-p`)).body;
    expect(after.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
    const same = await suite.api(
      'PATCH',
      `${PERSONS}/uid-p`,
      [
        { op: 'replace', path: '/metadata/uid', value: created.metadata.uid },
        { op: 'replace', path: '/spec/age', value: 9 },
      ],
      jsonPatch,
    );
    expect(same.status).toBe(200);
    expect(same.body.spec.age).toBe(9);
  });

  it('a patch that changes or removes metadata.name is 400, as a PUT body named otherwise, nothing written', async () => {
    const created = (await suite.api('POST', PERSONS, person('p-rename'))).body;
    const merge = { 'Content-Type': 'application/merge-patch+json' };
    const renamed = await suite.api('PATCH', `${PERSONS}/p-rename`, { metadata: { name: 'other' } }, merge);
    expect(renamed.status).toBe(400);
    expect(renamed.body).toMatchObject({
      reason: 'BadRequest',
      message: 'the name of the object (other) does not match the name on the URL (p-rename)',
    });
    const unnamed = await suite.api('PATCH', `${PERSONS}/p-rename/status`, { metadata: { name: null } }, merge);
    expect(unnamed.status).toBe(400);
    const removed = await suite.api('PATCH', `${PERSONS}/p-rename`, [{ op: 'remove', path: '/metadata/name' }], {
      'Content-Type': 'application/json-patch+json',
    });
    expect(removed.status).toBe(400);
    const same = await suite.api('PATCH', `${PERSONS}/p-rename`, { metadata: { name: 'p-rename' } }, merge);
    expect(same.status).toBe(200);
    expect(same.body.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
  });

  it('server-side apply creates a missing object, then merges', async () => {
    const applyType = { 'Content-Type': 'application/apply-patch+yaml' };
    const created = await suite.api('PATCH', `${PERSONS}/p-apply?fieldManager=test`, person('p-apply'), applyType);
    expect(created.status).toBe(201);
    const merged = await suite.api(
      'PATCH',
      `${PERSONS}/p-apply?fieldManager=test`,
      { ...person('p-apply'), spec: { age: 50 } },
      applyType,
    );
    expect(merged.status).toBe(200);
    expect(merged.body.spec).toMatchObject({ name: 'P-APPLY', age: 50 });
  });
});

describe('delete', () => {
  it('marks first, keeps the timestamp, and removes once no finalizer is left', async () => {
    await suite.api('POST', PERSONS, {
      ...person('d-ada'),
      metadata: { name: 'd-ada', finalizers: ['example.com/hold'] },
    });
    const marked = await suite.api('DELETE', `${PERSONS}/d-ada`);
    expect(marked.status).toBe(200);
    const stamp = marked.body.metadata.deletionTimestamp;
    expect(stamp).toBeDefined();
    const again = await suite.api('DELETE', `${PERSONS}/d-ada`);
    expect(again.body.metadata.deletionTimestamp).toBe(stamp);
    expect((await suite.api('GET', `${PERSONS}/d-ada`)).status).toBe(200);

    const addFinalizer = await suite.api(
      'PATCH',
      `${PERSONS}/d-ada`,
      { metadata: { finalizers: ['example.com/hold', 'example.com/more'] } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(addFinalizer.status).toBe(422);

    const released = await suite.api(
      'PATCH',
      `${PERSONS}/d-ada`,
      { metadata: { finalizers: [] } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(released.status).toBe(200);
    expect(released.body.metadata.deletionTimestamp).toBe(stamp);
    const stale = await suite.api('DELETE', `${PERSONS}/d-ada`, { preconditions: { resourceVersion: '1' } });
    expect(stale.status).toBe(409);
    const removed = await suite.api('DELETE', `${PERSONS}/d-ada`, {
      preconditions: { resourceVersion: released.body.metadata.resourceVersion },
    });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'd-ada', group: 'example.com', kind: 'persons', uid: released.body.metadata.uid },
      code: 200,
    });
    expect((await suite.api('GET', `${PERSONS}/d-ada`)).status).toBe(404);
  });

  it('refuses an unknown propagationPolicy in the body or the query (400 naming it), deleting nothing', async () => {
    await suite.api('POST', PERSONS, person('prop-a', {}, { suite: 'prop' }));
    const body = await suite.api('DELETE', `${PERSONS}/prop-a`, {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      propagationPolicy: 'Bogus',
    });
    const query = await suite.api('DELETE', `${PERSONS}/prop-a?propagationPolicy=Bogus`);
    const collection = await suite.api('DELETE', `${PERSONS}?labelSelector=suite%3Dprop&propagationPolicy=Bogus`);
    for (const res of [body, query, collection]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
      expect(res.body.message).toContain('"Bogus": must be one of Orphan, Background, Foreground');
    }
    expect((await suite.api('GET', `${PERSONS}/prop-a`)).body.metadata.deletionTimestamp).toBeUndefined();
    const accepted = await suite.api('DELETE', `${PERSONS}/prop-a`, { propagationPolicy: 'Foreground' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.metadata.deletionTimestamp).toBeDefined();
  });

  it('honours dryRun in a DeleteOptions body as in the query (kubectl sends it there), for one object and a collection', async () => {
    await suite.api('POST', PERSONS, person('dry-a', {}, { suite: 'dry' }));
    await suite.api('POST', PERSONS, person('dry-b', {}, { suite: 'dry' }));
    const options = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background', dryRun: ['All'] };
    const one = await suite.api('DELETE', `${PERSONS}/dry-a`, options);
    expect(one.status).toBe(200);
    expect(one.body.metadata.deletionTimestamp).toBeDefined();
    const many = await suite.api('DELETE', `${PERSONS}?labelSelector=suite%3Ddry`, options);
    expect(many.status).toBe(200);
    expect(many.body.items.map((i: any) => i.metadata.name).sort()).toEqual(['dry-a', 'dry-b']);
    const bad = await suite.api('DELETE', `${PERSONS}/dry-a`, { dryRun: ['Some'] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('invalid DeleteOptions.dryRun "Some"');
    const notOptions = await suite.api('DELETE', `${PERSONS}/dry-a`, { kind: 'Person', apiVersion: 'v1' });
    expect(notOptions.status).toBe(400);
    expect(notOptions.body.message).toContain('must be a DeleteOptions, not a "Person"');
    const metaVersion = await suite.api('DELETE', `${PERSONS}/dry-a`, { ...options, apiVersion: 'meta.k8s.io/v1' });
    expect(metaVersion.status).toBe(200);
    for (const name of ['dry-a', 'dry-b']) {
      const stored = await suite.api('GET', `${PERSONS}/${name}`);
      expect(stored.body.metadata.deletionTimestamp).toBeUndefined();
      expect(stored.body.metadata.version).toBe(1);
    }
  });

  it('deletecollection marks every match and answers a PersonList', async () => {
    await suite.api('POST', PERSONS, person('dc-1', {}, { batch: 'dc' }));
    await suite.api('POST', PERSONS, person('dc-2', {}, { batch: 'dc' }));
    await suite.api('POST', PERSONS, person('dc-3', {}, { batch: 'other' }));
    const res = await suite.api('DELETE', `${PERSONS}?labelSelector=batch%3Ddc`);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('PersonList');
    expect(res.body.items.map((i: any) => i.metadata.name).sort()).toEqual(['dc-1', 'dc-2']);
    expect(res.body.items.every((i: any) => i.metadata.deletionTimestamp)).toBe(true);
    expect((await suite.api('GET', `${PERSONS}/dc-3`)).body.metadata.deletionTimestamp).toBeUndefined();
  });

  it('deletecollection of more objects than it deletes at once marks each one, answering in list order', async () => {
    const names = Array.from({ length: 40 }, (_, i) => `dcm-${String(i).padStart(2, '0')}`);
    for (const name of names) await suite.api('POST', PERSONS, person(name, {}, { batch: 'many' }));
    const listed = await suite.api('GET', `${PERSONS}?labelSelector=batch%3Dmany`);
    const res = await suite.api('DELETE', `${PERSONS}?labelSelector=batch%3Dmany`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: any) => i.metadata.name)).toEqual(listed.body.items.map((i: any) => i.metadata.name));
    const after = await suite.api('GET', `${PERSONS}?labelSelector=batch%3Dmany`);
    expect(after.body.items).toHaveLength(names.length);
    expect(after.body.items.filter((i: any) => !i.metadata.deletionTimestamp)).toEqual([]);
  });
});
