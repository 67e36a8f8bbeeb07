import { usePersonsApi, MODELS, PERSONS } from '../support/person';
import { waitFor } from '../support/wait-for';

const suite = usePersonsApi();

it('lists the model group under /apis and /apis/<group>', async () => {
  const groups = await suite.api('GET', '/apis');
  expect(groups.body.kind).toBe('APIGroupList');
  const names = groups.body.groups.map((g: { name: string }) => g.name);
  expect(names).toEqual(expect.arrayContaining(['example.com', 'apiextensions.svc.run']));
  const group = await suite.api('GET', '/apis/example.com');
  expect(group.body).toMatchObject({
    kind: 'APIGroup',
    name: 'example.com',
    preferredVersion: { groupVersion: 'example.com/v1alpha1', version: 'v1alpha1' },
  });
});

it('lists resources cluster-scoped, the main resource before its status', async () => {
  const res = await suite.api('GET', '/apis/example.com/v1alpha1');
  expect(res.headers.get('content-type')).toContain('application/json');
  expect(res.body).toMatchObject({ kind: 'APIResourceList', groupVersion: 'example.com/v1alpha1' });
  expect(res.body.resources.map((r: { name: string }) => r.name)).toEqual(['persons', 'persons/status']);
  expect(res.body.resources[0]).toMatchObject({
    kind: 'Person',
    singularName: 'person',
    namespaced: false,
    shortNames: ['ps'],
  });
  expect(res.body.resources[0].verbs).toEqual(
    expect.arrayContaining(['create', 'get', 'list', 'watch', 'patch', 'delete', 'deletecollection', 'update']),
  );
});

it('serves core discovery at /api, /api/v1alpha1 and /apis/v1alpha1', async () => {
  expect((await suite.api('GET', '/api')).body).toMatchObject({ kind: 'APIVersions', versions: ['v1alpha1', 'v1'] });
  const security = [
    'personalaccesstokens',
    'personalaccesstokens/status',
    'rolebindings',
    'rolebindings/status',
    'roles',
    'roles/status',
    'users',
    'users/status',
  ];
  expect((await suite.api('GET', '/api/v1alpha1')).body.resources.map((r: { name: string }) => r.name)).toEqual(
    security,
  );
  await suite.server.schemes.register(
    { group: '', version: 'v1alpha1', kind: 'Note', singular: 'note', plural: 'notes' },
    undefined,
    { platform: true },
  );
  expect((await suite.api('GET', '/api/v1alpha1')).body.resources.map((r: { name: string }) => r.name)).toEqual(
    expect.arrayContaining(['notes', 'notes/status', ...security]),
  );
  expect((await suite.api('GET', '/api/v1alpha1')).body).toMatchObject({
    kind: 'APIResourceList',
    groupVersion: 'v1alpha1',
  });
  expect((await suite.api('GET', '/apis/v1alpha1')).body).toMatchObject({
    kind: 'APIResourceList',
    groupVersion: 'v1alpha1',
  });
});

it('serves OpenAPI v3 with GVK tags and the fieldValidation parameter', async () => {
  const index = await suite.api('GET', '/openapi/v3');
  expect(index.body.paths['apis/example.com/v1alpha1'].serverRelativeURL).toBeDefined();
  const doc = await suite.api('GET', index.body.paths['apis/example.com/v1alpha1'].serverRelativeURL);
  expect(doc.status).toBe(200);
  const schema = doc.body.components.schemas['com.example.v1alpha1.Person'];
  expect(schema['x-kubernetes-group-version-kind']).toEqual([
    { group: 'example.com', version: 'v1alpha1', kind: 'Person' },
  ]);
  const patch = doc.body.paths[`${PERSONS}/{name}`].patch;
  expect(patch['x-kubernetes-group-version-kind']).toEqual({
    group: 'example.com',
    version: 'v1alpha1',
    kind: 'Person',
  });
  expect(patch.parameters.map((p: { name: string }) => p.name)).toContain('fieldValidation');
});

it('answers /version in Kubernetes shape and the health endpoints', async () => {
  expect((await suite.api('GET', '/version')).body).toMatchObject({ major: '1', minor: '32' });
  for (const path of ['/healthz', '/livez', '/readyz']) expect((await suite.api('GET', path)).status).toBe(200);
  const metrics = await suite.api('GET', '/metrics');
  expect(metrics.text).toContain('svc_apiserver_requests_total');
});

it("exports the Redis store's used memory, as Redis reports it", async () => {
  const metrics = (await suite.api('GET', '/metrics')).text;
  const bytes = Number(/^svc_storage_used_memory_bytes (\d+)$/m.exec(metrics)?.[1]);
  // A Redis holding the persons model and the platform's objects uses at least a few hundred kilobytes.
  expect(bytes).toBeGreaterThan(100_000);
});

it('stops serving a model once its Model object is deleted', async () => {
  const res = await suite.api('POST', MODELS, {
    metadata: { name: 'gadgets.toys.example.com' },
    spec: { group: 'toys.example.com', version: 'v1', names: { kind: 'Gadget', plural: 'gadgets' } },
  });
  expect(res.status).toBe(201);
  await waitFor(async () => (await suite.api('GET', '/apis/toys.example.com/v1/gadgets')).status === 200, {
    what: 'gadgets served',
  });
  await suite.api('DELETE', `${MODELS}/gadgets.toys.example.com`);
  await waitFor(async () => (await suite.api('GET', '/apis/toys.example.com/v1/gadgets')).status === 404, {
    what: 'gadgets withdrawn',
  });
});

it('refuses a Model of a platform group or with a mismatched name (422)', async () => {
  const platform = await suite.api('POST', MODELS, {
    metadata: { name: 'things.core.svc.run' },
    spec: { group: 'core.svc.run', version: 'v1', names: { kind: 'Thing', plural: 'things' } },
  });
  expect(platform.status).toBe(422);
  const mismatch = await suite.api('POST', MODELS, {
    metadata: { name: 'other.example.org' },
    spec: { group: 'example.org', version: 'v1', names: { kind: 'Thing', plural: 'things' } },
  });
  expect(mismatch.status).toBe(422);
});

it('answers / with every served path, sorted, as Kubernetes does', async () => {
  const res = await suite.api('GET', '/');
  expect(res.status).toBe(200);
  const paths: string[] = res.body.paths;
  expect(paths).toEqual([...paths].sort());
  expect(paths).toEqual(
    expect.arrayContaining([
      '/api',
      '/api/v1alpha1',
      '/apis',
      '/apis/example.com',
      '/apis/example.com/v1alpha1',
      '/apis/apiextensions.svc.run',
      '/apis/apiextensions.svc.run/v1alpha1',
      '/healthz',
      '/livez',
      '/metrics',
      '/openapi/v3',
      '/readyz',
      '/version',
    ]),
  );
  for (const path of paths)
    expect({ path, status: (await suite.api('GET', path)).status }).toEqual({ path, status: 200 });
});
