import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningApiServer } from '../../pkg/server/app';
import { client, startTestApiServer, TEST_ADMIN_PASSWORD } from '../support/apiserver';
import { startTestControllerManager, stopTestControllerManagers } from '../support/controller-manager';
import { basic } from '../support/security';
import { waitFor } from '../support/wait-for';

// The walk of docs/plugins.md ("The example plugin, step by step"), on exactly examples/plugins/people:
// copied into an empty plugins folder, loaded by an RBAC apiserver with a controller-manager, then each command.
const dir = mkdtempSync(join(tmpdir(), 'svc-example-plugin-'));
const pluginsDir = join(dir, 'plugins');
cpSync(join(__dirname, '..', '..', 'examples', 'plugins', 'people'), join(pluginsDir, 'people'), {
  recursive: true,
});
const PERSONS = '/apis/people.example.com/v1alpha1/persons';
const JSON_TYPE = { 'Content-Type': 'application/json' };
const grace = (name: string, email: string) => ({ metadata: { name }, spec: { name: 'Grace', email } });

let server: RunningApiServer;
let admin: ReturnType<typeof client>;
let anonymous: ReturnType<typeof client>;
let ada: ReturnType<typeof client>;

beforeAll(async () => {
  const tokenFile = join(dir, 'token');
  writeFileSync(tokenFile, 'example-plugin-controller-manager-token\n', { mode: 0o600 });
  server = await startTestApiServer({ authorizationMode: 'RBAC', controllerManagerTokenFile: tokenFile, pluginsDir });
  await startTestControllerManager(server.url, { token: 'example-plugin-controller-manager-token' });
  admin = client(server.url, basic('admin', TEST_ADMIN_PASSWORD));
  anonymous = client(server.url);
  ada = client(server.url, basic('ada', 'ada-password-1'));
});
afterAll(async () => {
  await stopTestControllerManagers();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const setRoles = (roles: string[]) =>
  admin('POST', '/apis/api.console.svc.run/v1alpha1/users/ada/permissions', { roles }, JSON_TYPE);

describe('the example plugin, as docs/plugins.md walks through it', () => {
  it('1. is STARTED, with its three role templates applied', async () => {
    const plugin = await waitFor(
      async () => {
        const res = await admin('GET', '/apis/plugin.svc.run/v1alpha1/plugins/people');
        return res.body?.status?.phase === 'STARTED' && res.body.status.extensions?.length === 3 ? res.body : undefined;
      },
      { timeoutMs: 30_000, what: 'people to be STARTED with its roles applied' },
    );
    expect(plugin.status.extensions.map((e: { name: string }) => e.name)).toEqual([
      'people-view',
      'people-manage',
      'people-public',
    ]);
    expect(plugin.status.message).toBe('');
  });

  it('2. answers its public API to anyone, and not its persons API', async () => {
    // people-public reaches anonymous once the aggregation controller has materialised it.
    const greeting = await waitFor(
      async () => {
        const res = await anonymous('GET', '/apis/api.people.example.com/v1alpha1/greetings/ada');
        return res.status === 401 ? undefined : res;
      },
      { timeoutMs: 30_000, what: 'the public greeting to be open to anonymous' },
    );
    expect(greeting.body).toEqual({ greeting: 'Hello, ada!' });
    expect((await anonymous('GET', PERSONS)).status).toBe(401);
  });

  it('3. lets a user with people-view read persons but not write them', async () => {
    expect((await admin('POST', '/api/v1alpha1/users', { metadata: { name: 'ada' }, spec: {} })).status).toBe(201);
    expect((await admin('PUT', '/api/v1alpha1/users/ada/password', { password: 'ada-password-1' })).status).toBe(200);
    expect((await setRoles(['people-view'])).status).toBeLessThan(300);
    const read = await waitFor(
      async () => ((await ada('GET', PERSONS)).status === 200 ? ada('GET', PERSONS) : undefined),
      {
        what: 'ada to be allowed to list persons',
      },
    );
    expect(read.body.total).toBe(0);
    expect((await ada('POST', PERSONS, grace('grace', 'grace@example.com'))).body.code).toBe(403);
  });

  it('4. lets a user with people-manage write persons (unique email, indexed name) and use the console API', async () => {
    expect((await setRoles(['people-manage'])).status).toBeLessThan(300);
    const created = await waitFor(
      async () => {
        const res = await ada('POST', PERSONS, grace('grace', 'grace@example.com'));
        return res.status === 201 ? res : undefined;
      },
      { what: 'ada to be allowed to create persons' },
    );
    expect(created.body.metadata.name).toBe('grace');
    expect((await ada('POST', PERSONS, grace('grace2', 'GRACE@example.com'))).body.code).toBe(409);
    expect((await ada('GET', `${PERSONS}?fieldSelector=spec.name=grace`)).body.total).toBe(1);
    const check = await ada('POST', '/apis/console.api.people.example.com/v1alpha1/checks', {
      spec: { name: '', email: 'nope' },
    });
    expect(check.body).toEqual({
      valid: false,
      problems: ['spec.name is missing', 'spec.email is not an email address'],
      checkedBy: 'ada',
    });
    const permissions = await ada('GET', '/apis/api.console.svc.run/v1alpha1/users/-/permissions');
    expect(permissions.body.uiPermissions).toEqual(['plugin:people:person:manage', 'plugin:people:person:view']);
  });

  it('answers a bad body to its console API with a Status: 400 for no JSON object, 422 naming a field', async () => {
    const checks = '/apis/console.api.people.example.com/v1alpha1/checks';
    for (const body of ['{"spec":', 'not json', '[1,2]', '"a person"']) {
      const res = await ada('POST', checks, body, JSON_TYPE);
      expect([body, res.status, res.body.kind, res.body.reason]).toEqual([body, 400, 'Status', 'BadRequest']);
    }
    const wrong = await ada('POST', checks, { spec: { name: { first: 'Grace' }, email: 7 } }, JSON_TYPE);
    expect(wrong.status).toBe(422);
    expect(wrong.body).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422 });
    expect(wrong.body.details.causes.map((c: { field: string }) => c.field)).toEqual(['spec.name', 'spec.email']);
    expect((await ada('POST', checks, { spec: 'Grace' }, JSON_TYPE)).body.details.causes[0].field).toBe('spec');
  });

  it('answers "how do I make my API public?": the access review allows anonymous, and the call works', async () => {
    const review = await admin(
      'POST',
      '/apis/authorization.svc.run/v1alpha1/accessreviews',
      { spec: { user: 'anonymous', verb: 'get', group: 'api.people.example.com', resource: 'greetings' } },
      JSON_TYPE,
    );
    expect(review.body.status.allowed).toBe(true);
    expect((await anonymous('GET', '/apis/api.people.example.com/v1alpha1/greetings/ada')).status).toBe(200);
  });
});
