import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningApiServer } from '../../pkg/server/app';
import { client as rawClient, startTestApiServer, TEST_ADMIN_PASSWORD } from '../support/apiserver';
import { startTestControllerManager, stopTestControllerManagers } from '../support/controller-manager';
import { waitFor } from '../support/wait-for';
import { writePlugin } from '../support/plugin-folder';

// The plugin controller (docs/plugins.md) in a controller-manager that holds only its built-in role, against an RBAC
// apiserver with a plugins folder: a started plugin's extensions/ objects are applied and listed in its status,
// deleted when it is disabled or deleted, applied again when it is enabled; objects it may not declare are refused.
const PLUGINS = '/apis/plugin.svc.run/v1alpha1/plugins';
const ROLES = '/api/v1alpha1/roles';
const admin = { Authorization: `Basic ${Buffer.from(`admin:${TEST_ADMIN_PASSWORD}`).toString('base64')}` };
const token = 'controller-manager-token-for-the-plugin-test';

const dir = mkdtempSync(join(tmpdir(), 'svc-plugin-ext-'));
const pluginsDir = join(dir, 'plugins');

/** A plugin's index.js serving one route, `GET /apis/<name>.example.com/v1alpha1/pings`. */
const pingRoute = (name: string) =>
  `module.exports = { start(ctx) { ctx.routes.get('/apis/${name}.example.com/v1alpha1/pings', () => ({ pong: true })); } };`;

/** Writes a plugin folder with these extension objects, and that route unless `code` is given. */
function writePingPlugin(name: string, extensions: string, code = pingRoute(name)) {
  writePlugin(pluginsDir, name, { code, extensions: { 'objects.yaml': extensions } });
}

writePingPlugin(
  'shop',
  `apiVersion: v1alpha1
kind: Role
metadata:
  name: shop-viewer
  labels: {svc.run/role-template: "true", rbac.authorization.svc.run/aggregate-to-anonymous: "true"}
rules:
  - {apiGroups: [shop.example.com], resources: [pings], verbs: [list]}
`,
);
writePingPlugin(
  'rogue',
  `apiVersion: v1alpha1
kind: Role
metadata:
  name: rogue-sneaky
  labels: {svc.run/role-template: "true", svc.run/system: "true"}
rules: []
---
apiVersion: v1alpha1
kind: Role
metadata:
  name: rogue-fine
  labels: {svc.run/role-template: "true"}
rules: []
`,
);

// A plugin whose extensions/ hold an object of its own model, and a binding that would give it the super role.
writePingPlugin(
  'zoo',
  `apiVersion: zoo.example.com/v1alpha1
kind: Human
metadata: {name: seed-human}
spec: {say: hello}
---
apiVersion: v1alpha1
kind: RoleBinding
metadata: {name: zoo-everything}
roleRef: {apiGroup: "", kind: Role, name: super-role}
subjects: [{kind: User, apiGroup: "", name: "system:plugin:zoo"}]
`,
  `module.exports = { async start(ctx) {
    await ctx.schemes.register({
      group: 'zoo.example.com', version: 'v1alpha1',
      names: { kind: 'Human', singular: 'human', plural: 'humans' },
      schema: { type: 'object', properties: { spec: { type: 'object', properties: { say: { type: 'string' } } } } },
    });
  } };`,
);

let server: RunningApiServer;
const api = () => rawClient(server.url);
const read = async (path: string) => api()('GET', path, undefined, admin);

beforeAll(async () => {
  const tokenFile = join(dir, 'token');
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  server = await startTestApiServer({ authorizationMode: 'RBAC', controllerManagerTokenFile: tokenFile, pluginsDir });
  await startTestControllerManager(server.url, { token });
});
afterAll(async () => {
  await stopTestControllerManagers();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Waits until the Plugin satisfies `check`; returns it. */
const pluginWhen = (name: string, check: (plugin: any) => boolean, what: string) =>
  waitFor(
    async () => {
      const res = await read(`${PLUGINS}/${name}`);
      return res.status === 200 && check(res.body) ? res.body : undefined;
    },
    { timeoutMs: 20_000, what },
  );
const roleGone = (name: string) =>
  waitFor(async () => (await read(`${ROLES}/${name}`)).status === 404, {
    timeoutMs: 20_000,
    what: `role ${name} to be deleted`,
  });
const setEnabled = (name: string, enabled: boolean) =>
  api()(
    'PATCH',
    `${PLUGINS}/${name}`,
    { spec: { enabled } },
    { ...admin, 'Content-Type': 'application/merge-patch+json' },
  );

describe('the plugin controller', () => {
  it("applies a started plugin's role template, labelled and listed; deletes it on disable and applies it again on enable", async () => {
    const listed = (p: any) => p.status?.phase === 'STARTED' && p.status.extensions?.length === 1;
    const shop = await pluginWhen('shop', listed, "shop's role template to be listed in its status");
    expect(shop.status.extensions).toEqual([{ apiVersion: 'v1alpha1', kind: 'Role', name: 'shop-viewer' }]);
    expect(shop.status.conditions).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'ExtensionsApplied', status: 'True' })]),
    );
    expect(shop.metadata.finalizers).toContain('plugin.svc.run/extensions');
    const role = await read(`${ROLES}/shop-viewer`);
    expect(role.status).toBe(200);
    expect(role.body.metadata.labels).toEqual({
      'svc.run/role-template': 'true',
      'rbac.authorization.svc.run/aggregate-to-anonymous': 'true',
      'plugin.svc.run/plugin-name': 'shop',
    });
    expect(role.body.rules).toEqual([{ apiGroups: ['shop.example.com'], resources: ['pings'], verbs: ['list'] }]);

    expect((await setEnabled('shop', false)).status).toBe(200);
    await pluginWhen(
      'shop',
      (p) => p.status?.phase === 'STOPPED' && p.status.extensions?.length === 0,
      'shop to be STOPPED with no extensions',
    );
    expect((await read('/apis/shop.example.com/v1alpha1/pings')).status).toBe(404);
    await roleGone('shop-viewer');

    expect((await setEnabled('shop', true)).status).toBe(200);
    await pluginWhen('shop', listed, "shop's role template to be listed again");
    expect((await read('/apis/shop.example.com/v1alpha1/pings')).body).toEqual({ pong: true });
    expect((await read(`${ROLES}/shop-viewer`)).body.metadata.labels['plugin.svc.run/plugin-name']).toBe('shop');
  });

  it("puts a plugin's role template back when someone edits or deletes it", async () => {
    await pluginWhen(
      'shop',
      (p) => p.status?.phase === 'STARTED' && p.status.extensions?.length === 1,
      "shop's role template to be listed",
    );
    const declared = [{ apiGroups: ['shop.example.com'], resources: ['pings'], verbs: ['list'] }];
    const edit = await api()(
      'PATCH',
      `${ROLES}/shop-viewer`,
      { rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['get'] }] },
      { ...admin, 'Content-Type': 'application/merge-patch+json' },
    );
    expect(edit.status).toBe(200);
    await waitFor(
      async () => JSON.stringify((await read(`${ROLES}/shop-viewer`)).body.rules) === JSON.stringify(declared),
      { timeoutMs: 20_000, what: "shop-viewer's rules to be put back" },
    );
    expect((await api()('DELETE', `${ROLES}/shop-viewer`, undefined, admin)).status).toBe(200);
    await waitFor(
      async () => {
        const res = await read(`${ROLES}/shop-viewer`);
        return (
          res.status === 200 && !res.body.metadata.deletionTimestamp && res.body.metadata.uid !== edit.body.metadata.uid
        );
      },
      { timeoutMs: 20_000, what: 'shop-viewer to be created again' },
    );
  });

  it('does not apply an object with a platform label, and names it and the reason in the message and a condition', async () => {
    const rogue = await pluginWhen(
      'rogue',
      (p) => p.status?.extensions?.length === 1,
      "rogue's allowed role to be listed",
    );
    const reason = 'Role "rogue-sneaky": label "svc.run/system" is under the platform\'s prefix svc.run';
    expect(rogue.status.phase).toBe('STARTED');
    expect(rogue.status.message).toBe(reason);
    expect(rogue.status.extensions).toEqual([{ apiVersion: 'v1alpha1', kind: 'Role', name: 'rogue-fine' }]);
    expect(rogue.status.conditions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'ExtensionsApplied', status: 'False', reason: 'NotApplied', message: reason }),
      ]),
    );
    expect((await read(`${ROLES}/rogue-sneaky`)).status).toBe(404);
    expect((await read(`${ROLES}/rogue-fine`)).status).toBe(200);
  });

  it("applies an object of the plugin's own model as the plugin, and refuses what the plugin itself may not write", async () => {
    const zoo = await pluginWhen(
      'zoo',
      (p) => p.status?.phase === 'STARTED' && p.status.extensions?.length === 1,
      "zoo's Human to be listed in its status",
    );
    expect(zoo.status.extensions).toEqual([
      { apiVersion: 'zoo.example.com/v1alpha1', kind: 'Human', name: 'seed-human' },
    ]);
    const human = await read('/apis/zoo.example.com/v1alpha1/humans/seed-human');
    expect(human.status).toBe(200);
    expect(human.body.spec).toEqual({ say: 'hello' });
    expect(human.body.metadata.labels).toEqual({ 'plugin.svc.run/plugin-name': 'zoo' });
    // The binding is written as system:plugin:zoo, which may not bind roles: the plugin gains nothing.
    expect(zoo.status.message).toMatch(/^RoleBinding "zoo-everything": .*system:plugin:zoo/);
    expect(zoo.status.conditions).toEqual(
      expect.arrayContaining([expect.objectContaining({ type: 'ExtensionsApplied', status: 'False' })]),
    );
    expect((await read('/api/v1alpha1/rolebindings/zoo-everything')).status).toBe(404);
  });

  it('lets nobody but the controller-manager act as a plugin', async () => {
    const asZoo = { ...admin, 'Impersonate-User': 'system:plugin:zoo' };
    const res = await api()('GET', '/apis/zoo.example.com/v1alpha1/humans', undefined, asZoo);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(
      'users "system:plugin:zoo" is forbidden: User "admin" cannot impersonate plugin identities',
    );
    const anonymous = await api()('GET', '/apis/zoo.example.com/v1alpha1/humans', undefined, {
      'Impersonate-User': 'system:plugin:zoo',
    });
    expect(anonymous.status).toBe(403);
  });

  it('holds a deleted Plugin until its extension objects are deleted, then it goes', async () => {
    await pluginWhen('rogue', (p) => p.status?.extensions?.length === 1, "rogue's allowed role to be listed");
    expect((await api()('DELETE', `${PLUGINS}/rogue`, undefined, admin)).status).toBe(200);
    await roleGone('rogue-fine');
    await waitFor(async () => (await read(`${PLUGINS}/rogue`)).status === 404, {
      timeoutMs: 20_000,
      what: 'the rogue Plugin to be removed',
    });
    expect((await read('/apis/rogue.example.com/v1alpha1/pings')).status).toBe(404);
  });
});
