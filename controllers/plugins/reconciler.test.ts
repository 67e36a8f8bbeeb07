import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { RunningApiServer } from '../../pkg/server/app';
import { ApiClient } from '../../pkg/client/api-client';
import { isNotFound } from '../../pkg/client/errors';
import type { ReadonlyCache } from '../../pkg/controller/cache';
import type { ReconcileContext } from '../../pkg/controller/reconciler';
import { deepFreeze } from '../../pkg/util/deep-freeze';
import { startTestApiServer } from '../../test/support/apiserver';
import { waitFor } from '../../test/support/wait-for';
import { PLUGIN_EXTENSIONS_FINALIZER, PLUGIN_NAME_LABEL, PLUGINS, type ExtensionRef, type Plugin } from './plugins';
import { PluginExtensionsReconciler } from './reconciler';

// The reconciler called directly against a real apiserver whose plugins folder holds plugin "kit", with a cache
// holding exactly the Plugin a test gives it.

const ROLES = { group: '', version: 'v1alpha1', plural: 'roles', kind: 'Role' };
const ctx: ReconcileContext = { signal: new AbortController().signal, log: pino({ level: 'silent' }) };
const dir = mkdtempSync(join(tmpdir(), 'svc-plugin-reconciler-'));
mkdirSync(join(dir, 'kit', 'extensions'), { recursive: true });
writeFileSync(
  join(dir, 'kit', 'plugin.yaml'),
  'apiVersion: plugin.svc.run/v1alpha1\nkind: Plugin\nmetadata: {name: kit}\nspec: {version: 1.0.0}\n',
);
writeFileSync(
  join(dir, 'kit', 'extensions', 'roles.yaml'),
  'apiVersion: v1alpha1\nkind: Role\nmetadata: {name: kit-viewer, labels: {svc.run/role-template: "true"}}\n' +
    'rules: [{apiGroups: [kit.example.com], resources: [things], verbs: [get]}]\n',
);

let server: RunningApiServer;
let client: ApiClient;
beforeAll(async () => {
  server = await startTestApiServer({ pluginsDir: dir });
  client = new ApiClient({ server: server.url });
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The stored kit Plugin once STARTED, with its finalizer, and `extensions` as given in its status: what the cache holds. */
async function startedKit(extensions: ExtensionRef[]): Promise<Plugin> {
  let plugin = await waitFor(
    async () => {
      const p = await client.get<Plugin>(PLUGINS, 'kit');
      return p.status?.phase === 'STARTED' ? p : undefined;
    },
    { what: 'kit to be STARTED' },
  );
  if (!plugin.metadata.finalizers?.length) {
    plugin = await client.update<Plugin>(PLUGINS, {
      ...plugin,
      metadata: { ...plugin.metadata, finalizers: [PLUGIN_EXTENSIONS_FINALIZER] },
    });
  }
  return { ...plugin, status: { ...plugin.status, extensions } };
}

const cacheOf = (plugin: Plugin): ReadonlyCache<Plugin> => {
  const frozen = deepFreeze(structuredClone(plugin));
  return { get: (name) => (name === 'kit' ? frozen : undefined), list: () => [frozen], size: () => 1 };
};

const role = (name: string, labels: Record<string, string>) => ({
  apiVersion: 'v1alpha1',
  kind: 'Role',
  metadata: { name, labels },
  rules: [{ apiGroups: ['x'], resources: ['y'], verbs: ['list'] }],
});

describe('PluginExtensionsReconciler', () => {
  it('updates an extension object over the stored one, deletes dropped ones it labelled, and leaves others alone', async () => {
    await client.create(ROLES, role('kit-viewer', { 'example.com/mine': 'yes' }));
    await client.create(ROLES, role('kit-old', { [PLUGIN_NAME_LABEL]: 'kit' }));
    await client.create(ROLES, role('kit-foreign', {}));
    const listed = ['kit-viewer', 'kit-old', 'kit-foreign'].map((name) => ({
      apiVersion: 'v1alpha1',
      kind: 'Role',
      name,
    }));
    await new PluginExtensionsReconciler(client, cacheOf(await startedKit(listed))).reconcile({ name: 'kit' }, ctx);

    const viewer = await client.get<ReturnType<typeof role>>(ROLES, 'kit-viewer');
    expect(viewer.metadata.labels).toEqual({ 'svc.run/role-template': 'true', [PLUGIN_NAME_LABEL]: 'kit' });
    expect(viewer.rules).toEqual([{ apiGroups: ['kit.example.com'], resources: ['things'], verbs: ['get'] }]);
    const old = await client
      .get(ROLES, 'kit-old')
      .catch((err: unknown) => (isNotFound(err) ? undefined : Promise.reject(err)));
    expect(old === undefined || old.metadata.deletionTimestamp !== undefined).toBe(true);
    expect((await client.get(ROLES, 'kit-foreign')).metadata.deletionTimestamp).toBeUndefined();

    const plugin = await client.get<Plugin>(PLUGINS, 'kit');
    expect(plugin.status?.extensions).toEqual([{ apiVersion: 'v1alpha1', kind: 'Role', name: 'kit-viewer' }]);
  });

  it('adds its finalizer to a Plugin that lacks it', async () => {
    const plugin = await startedKit([]);
    const without = await client.update<Plugin>(PLUGINS, {
      ...plugin,
      metadata: { ...plugin.metadata, finalizers: [] },
    });
    await new PluginExtensionsReconciler(client, cacheOf(without)).reconcile({ name: 'kit' }, ctx);
    expect((await client.get(PLUGINS, 'kit')).metadata.finalizers).toEqual([PLUGIN_EXTENSIONS_FINALIZER]);
  });

  it('writes nothing when everything is applied already', async () => {
    const plugin = await startedKit([{ apiVersion: 'v1alpha1', kind: 'Role', name: 'kit-viewer' }]);
    await new PluginExtensionsReconciler(client, cacheOf(plugin)).reconcile({ name: 'kit' }, ctx);
    const before = await client.get<Plugin>(PLUGINS, 'kit');
    const viewer = await client.get(ROLES, 'kit-viewer');
    await new PluginExtensionsReconciler(client, cacheOf(before)).reconcile({ name: 'kit' }, ctx);
    expect((await client.get(PLUGINS, 'kit')).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect((await client.get(ROLES, 'kit-viewer')).metadata.resourceVersion).toBe(viewer.metadata.resourceVersion);
  });
});
