import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { RunningApiServer } from '../../pkg/server/app';
import { client as rawClient, startTestApiServer, TEST_ADMIN_PASSWORD } from '../support/apiserver';
import { startTestControllerManager, stopTestControllerManagers } from '../support/controller-manager';
import { makeTgz } from '../support/tgz';
import { waitFor } from '../support/wait-for';
import { pluginManifest, writePluginFolder } from '../support/plugin-folder';

// Hot reload (docs/plugins.md): a plugin added to, changed in or removed from the plugins folder of a running apiserver
// is installed, reloaded or uninstalled (its extension objects deleted by the controller first); a .tgz plugin is
// unpacked, one with a link or a path leaving its folder is FAILED.
const PLUGINS = '/apis/plugin.svc.run/v1alpha1/plugins';
const ROLES = '/api/v1alpha1/roles';
const admin = { Authorization: `Basic ${Buffer.from(`admin:${TEST_ADMIN_PASSWORD}`).toString('base64')}` };
const token = 'controller-manager-token-for-the-reload-test';

const dir = mkdtempSync(join(tmpdir(), 'svc-plugin-reload-'));
const pluginsDir = join(dir, 'plugins');
mkdirSync(pluginsDir);

const manifest = (name: string, version = '1.0.0') => pluginManifest(name, { version });
const code = (name: string, answer: string) =>
  `module.exports = { start(ctx) { ctx.routes.get('/apis/${name}.example.com/v1alpha1/answers', () => ({ answer: '${answer}' })); } };`;
const role = (name: string) =>
  `apiVersion: v1alpha1\nkind: Role\nmetadata:\n  name: ${name}-reader\n  labels: {svc.run/role-template: "true"}\nrules: []\n`;

/** Writes a plugin folder next to the plugins folder, then moves it in at once, as an installer would. */
function addPlugin(name: string, answer: string) {
  const staging = join(dir, `staging-${name}`);
  writePluginFolder(staging, name, {
    code: code(name, answer),
    extensions: { 'roles.yaml': role(name) },
  });
  renameSync(staging, join(pluginsDir, name));
}

/**
 * A plugin whose `…/slow` route answers only once the file `<name>.release` exists (having written `<name>.entered`
 * when the request reached it), and whose `…/ping` answers at once.
 */
function addGatedPlugin(name: string) {
  const [entered, release] = [join(dir, `${name}.entered`), join(dir, `${name}.release`)];
  const staging = join(dir, `staging-${name}`);
  writePluginFolder(staging, name, {
    code: `const fs = require('node:fs');
module.exports = { start(ctx) {
  ctx.routes.get('/apis/${name}.example.com/v1alpha1/ping', () => ({ pong: true }));
  ctx.routes.get('/apis/${name}.example.com/v1alpha1/slow', () => new Promise((resolve) => {
    fs.writeFileSync(${JSON.stringify(entered)}, '');
    const timer = setInterval(() => {
      if (!fs.existsSync(${JSON.stringify(release)})) return;
      clearInterval(timer);
      resolve({ finished: true });
    }, 20);
  }));
} };`,
  });
  renameSync(staging, join(pluginsDir, name));
  return { entered, release };
}

let server: RunningApiServer;
const api = () => rawClient(server.url);
const read = (path: string) => api()('GET', path, undefined, admin);
const pluginWhen = (name: string, check: (plugin: any) => boolean, what: string) =>
  waitFor(
    async () => {
      const res = await read(`${PLUGINS}/${name}`);
      return res.status === 200 && check(res.body) ? res.body : undefined;
    },
    { timeoutMs: 20_000, what },
  );
const answerIs = (name: string, answer: string) =>
  waitFor(async () => (await read(`/apis/${name}.example.com/v1alpha1/answers`)).body?.answer === answer, {
    timeoutMs: 20_000,
    what: `${name} to answer ${answer}`,
  });

beforeAll(async () => {
  addPlugin('early', 'one');
  const tokenFile = join(dir, 'token');
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  server = await startTestApiServer({
    authorizationMode: 'RBAC',
    controllerManagerTokenFile: tokenFile,
    pluginsDir,
    pluginRescanSeconds: 1,
    pluginArchiveMaxMb: 4,
  });
  await startTestControllerManager(server.url, { token });
});
afterAll(async () => {
  await stopTestControllerManagers();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a running apiserver following its plugins folder', () => {
  it('installs a plugin folder added after the start, with its extension objects', async () => {
    await answerIs('early', 'one');
    addPlugin('late', 'first');
    await pluginWhen('late', (p) => p.status?.phase === 'STARTED', 'late to be STARTED');
    await answerIs('late', 'first');
    await pluginWhen('late', (p) => p.status?.extensions?.length === 1, "late's role to be applied");
    expect((await read(`${ROLES}/late-reader`)).status).toBe(200);
  });

  it('reloads a plugin whose code or plugin.yaml changed', async () => {
    await answerIs('late', 'first');
    writeFileSync(join(pluginsDir, 'late', 'index.js'), code('late', 'second'));
    await answerIs('late', 'second');
    writeFileSync(join(pluginsDir, 'late', 'plugin.yaml'), manifest('late', '2.0.0'));
    const plugin = await pluginWhen(
      'late',
      (p) => p.spec.version === '2.0.0' && p.status?.phase === 'STARTED',
      'late to be STARTED at 2.0.0',
    );
    expect(plugin.status.message).toBe('');
    await answerIs('late', 'second');
  });

  it('uninstalls a removed plugin: its routes go, its extension objects are deleted, then its Plugin object', async () => {
    await pluginWhen('early', (p) => p.status?.extensions?.length === 1, "early's role to be applied");
    rmSync(join(pluginsDir, 'early'), { recursive: true });
    await waitFor(async () => (await read(`${PLUGINS}/early`)).status === 404, {
      timeoutMs: 20_000,
      what: 'the early Plugin to be deleted',
    });
    expect((await read(`${ROLES}/early-reader`)).status).toBe(404);
    expect((await read('/apis/early.example.com/v1alpha1/answers')).status).toBe(404);
    await answerIs('late', 'second');
  });

  describe('a plugin stopped while its requests run lets them finish; new ones find no route (404)', () => {
    const whileStopping = async (name: string, stop: () => Promise<unknown>) => {
      const gate = addGatedPlugin(name);
      await pluginWhen(name, (p) => p.status?.phase === 'STARTED', `${name} to be STARTED`);
      const slow = read(`/apis/${name}.example.com/v1alpha1/slow`);
      await waitFor(() => existsSync(gate.entered), { timeoutMs: 20_000, what: `the slow request to reach ${name}` });
      await stop();
      await waitFor(async () => (await read(`/apis/${name}.example.com/v1alpha1/ping`)).status === 404, {
        timeoutMs: 20_000,
        what: `${name}'s routes to go`,
      });
      writeFileSync(gate.release, '');
      const answer = await slow;
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ finished: true });
    };

    it('when its folder is removed', async () => {
      await whileStopping('leaving', async () => rmSync(join(pluginsDir, 'leaving'), { recursive: true }));
      await waitFor(async () => (await read(`${PLUGINS}/leaving`)).status === 404, {
        timeoutMs: 20_000,
        what: 'the leaving Plugin to be deleted',
      });
    });

    it('when it is disabled', async () => {
      await whileStopping('pausing', () =>
        api()(
          'PATCH',
          `${PLUGINS}/pausing`,
          { spec: { enabled: false } },
          {
            ...admin,
            'Content-Type': 'application/merge-patch+json',
          },
        ),
      );
      await pluginWhen('pausing', (p) => p.status?.phase === 'STOPPED', 'pausing to be STOPPED');
    });
  });

  it('installs a .tgz plugin (with one top-level folder), and reloads it when the archive changes', async () => {
    const archive = (answer: string) =>
      makeTgz([
        { path: 'packed/' },
        { path: 'packed/plugin.yaml', content: manifest('packed') },
        { path: 'packed/index.js', content: code('packed', answer) },
      ]);
    writeFileSync(join(dir, 'packed.tgz'), archive('zipped'));
    renameSync(join(dir, 'packed.tgz'), join(pluginsDir, 'packed.tgz'));
    await answerIs('packed', 'zipped');
    writeFileSync(join(dir, 'packed.tgz'), archive('rezipped'));
    renameSync(join(dir, 'packed.tgz'), join(pluginsDir, 'packed.tgz'));
    await answerIs('packed', 'rezipped');
  });

  it('is FAILED, naming the entries, for a .tgz with a symbolic link or a path leaving its folder', async () => {
    writeFileSync(
      join(pluginsDir, 'sneaky.tgz'),
      makeTgz([
        { path: 'plugin.yaml', content: manifest('sneaky') },
        { path: 'index.js', content: code('sneaky', 'never') },
        { path: 'passwd', link: '/etc/passwd' },
        { path: '../../outside.js', content: 'x' },
      ]),
    );
    const plugin = await pluginWhen('sneaky', (p) => p.status?.phase === 'FAILED', 'sneaky to be FAILED');
    expect(plugin.status.message).toMatch(/^sneaky\.tgz: refused: /);
    expect(plugin.status.message).toContain('passwd: a symbolic link is not allowed');
    expect(plugin.status.message).toContain("../../outside.js: the path leaves the plugin's folder");
    expect((await read('/apis/sneaky.example.com/v1alpha1/answers')).status).toBe(404);
  });

  it('is FAILED, under the file name, for a .tgz that unpacks past the size limit (a gzip bomb)', async () => {
    // A tiny archive whose gzip stream goes on with 16 MiB of zeros, past the 4 MiB this apiserver allows.
    const zeros = gzipSync(Buffer.alloc(16 * 1024 * 1024));
    const bomb = Buffer.concat([makeTgz([{ path: 'plugin.yaml', content: manifest('innocent') }]), zeros]);
    writeFileSync(join(dir, 'Bomb_1.tgz'), bomb);
    renameSync(join(dir, 'Bomb_1.tgz'), join(pluginsDir, 'Bomb_1.tgz'));
    const plugin = await pluginWhen('bomb-1', (p) => p.status?.phase === 'FAILED', 'bomb-1 to be FAILED');
    expect(plugin.status.message).toBe(
      'Bomb_1.tgz: is refused: it unpacks to more than 4 MiB, the limit of an unpacked plugin archive ' +
        '(--plugin-archive-max-size)',
    );
    expect(plugin.spec.version).toBe('unknown');
    expect((await read(`${PLUGINS}/innocent`)).status).toBe(404);
    rmSync(join(pluginsDir, 'Bomb_1.tgz'));
    await waitFor(async () => (await read(`${PLUGINS}/bomb-1`)).status === 404, {
      timeoutMs: 20_000,
      what: 'the bomb-1 Plugin to be removed with its archive',
    });
  });

  it("names files in a FAILED plugin's message relative to the plugins folder, never by their absolute path", async () => {
    const failing = `module.exports = { start() { throw new Error('cannot read ' + require('node:path').join(__dirname, 'data.json')); } };`;
    const staging = join(dir, 'staging-pathy');
    writePluginFolder(staging, 'pathy', { code: failing });
    renameSync(staging, join(pluginsDir, 'pathy'));
    writeFileSync(
      join(pluginsDir, 'missing.tgz'),
      makeTgz([
        { path: 'plugin.yaml', content: manifest('missing') },
        { path: 'index.js', content: "require('./gone');" },
      ]),
    );
    const pathy = await pluginWhen('pathy', (p) => p.status?.phase === 'FAILED', 'pathy to be FAILED');
    expect(pathy.status.message).toBe('start failed: cannot read pathy/data.json');
    const missing = await pluginWhen('missing', (p) => p.status?.phase === 'FAILED', 'missing to be FAILED');
    expect(missing.status.message).toContain("Cannot find module './gone'");
    expect(missing.status.message).toContain('missing.tgz/index.js');
    for (const plugin of [pathy, missing]) {
      expect(plugin.status.message).not.toContain(tmpdir());
      expect(plugin.status.message).not.toContain(process.cwd());
      expect(plugin.status.conditions[0].message).toBe(plugin.status.message);
    }
  });
});
