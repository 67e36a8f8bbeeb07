import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createUser, expectStatus, useRbacApi } from '../support/security';
import { waitFor } from '../support/wait-for';

// Console pages shipped by plugins: a STARTED plugin with `spec.console` is listed to every logged-in user, and
// the files of its console folder (only those) are served to anyone, like the console's own; a stopped one is not.

const dir = mkdtempSync(join(tmpdir(), 'svc-console-plugins-'));
const people = join(dir, 'people');
cpSync(join(__dirname, '..', '..', 'examples', 'plugins', 'people'), people, { recursive: true });
// A link out of the console folder, and a file outside it: neither may be served.
symlinkSync(join(people, 'index.js'), join(people, 'console', 'server-code.js'));
writeFileSync(join(people, 'notes.js'), '// not a console file');

const api = useRbacApi({ pluginsDir: dir });
const PLUGIN = '/apis/plugin.svc.run/v1alpha1/plugins/people';
const LIST = '/apis/api.console.svc.run/v1alpha1/consoleplugins';
const FILES = '/console/plugin-files/people';

const phase = async () => (await api.admin('GET', PLUGIN)).body?.status?.phase;

beforeAll(async () => {
  await waitFor(async () => (await phase()) === 'STARTED', { what: 'people to start', timeoutMs: 30_000 });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('lists the console pages of running plugins to a user who may not list plugins, and not to the anonymous', async () => {
  const ada = await createUser(api, 'ada', 'ada-password');
  expect((await ada('GET', '/apis/plugin.svc.run/v1alpha1/plugins')).status).toBe(403);
  const list = await ada('GET', LIST);
  expect(list.status).toBe(200);
  expect(list.body).toEqual({
    apiVersion: 'api.console.svc.run/v1alpha1',
    kind: 'ConsolePluginList',
    items: [{ name: 'people', version: '1.0.0', displayName: 'People', entry: `${FILES}/console/index.js` }],
  });
  expect((await api.anonymous('GET', LIST)).status).toBe(401);
  expect((await ada('POST', LIST, {})).status).toBe(405);
});

it("serves the console folder's files to anyone, revalidated, and nothing else of the plugin", async () => {
  const entry = await api.anonymous('GET', `${FILES}/console/index.js`);
  expect(entry.status).toBe(200);
  expect(entry.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(entry.headers.get('cache-control')).toBe('no-cache');
  expect(entry.text).toContain('export const routes');
  for (const path of [
    `${FILES}/plugin.yaml`,
    `${FILES}/index.js`,
    `${FILES}/notes.js`,
    `${FILES}/console/server-code.js`,
    `${FILES}/console/..%2findex.js`,
    `${FILES}/console/%2e%2e/index.js`,
    `${FILES}/console/`,
    `${FILES}/console`,
    `${FILES}/extensions/roles.yaml`,
    '/console/plugin-files/nobody/console/index.js',
  ]) {
    const res = await api.anonymous('GET', path);
    // 404, or 400 for an encoded slash, which the apiserver refuses in any path.
    expect([path, res.status === 400 ? 404 : res.status, res.body?.kind]).toEqual([path, 404, 'Status']);
  }
});

it('stops listing and serving the pages of a disabled plugin, and starts again when it is enabled', async () => {
  const enable = async (enabled: boolean) =>
    expectStatus(
      await api.admin('PATCH', PLUGIN, { spec: { enabled } }, { 'Content-Type': 'application/merge-patch+json' }),
      200,
      `enabled: ${enabled}`,
    );
  await enable(false);
  await waitFor(async () => (await phase()) === 'STOPPED', { what: 'people to stop' });
  expect((await api.admin('GET', LIST)).body.items).toEqual([]);
  expect((await api.anonymous('GET', `${FILES}/console/index.js`)).status).toBe(404);
  await enable(true);
  await waitFor(async () => (await phase()) === 'STARTED', { what: 'people to start again', timeoutMs: 30_000 });
  expect((await api.admin('GET', LIST)).body.items).toHaveLength(1);
  expect((await api.anonymous('GET', `${FILES}/console/index.js`)).status).toBe(200);
});
