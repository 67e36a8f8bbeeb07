import type { RunningApiServer } from '../../pkg/server/app';
import { startTestApiServer } from '../support/apiserver';
import { captureLog } from '../support/log-capture';
import { stopControllerManagers } from '../support/running-controller-managers';
import { bind, createRole, createUser, expectStatus, rbacApi, type RbacApi } from '../support/security';
import { waitFor } from '../support/wait-for';
import { usePluginsDir, writePlugin } from '../support/plugin-folder';

// A plugin's ctx.client and req.client answer gets and lists in process as values (pkg/apiserver/in-process-read.ts):
// judged as the same GET over HTTP, with no access-log line of their own, for the caller the host knows and no other.
const CARDS = '/apis/cards.example.com/v1alpha1';

const pluginsDir = usePluginsDir('svc-plugin-typed-reads');
writePlugin(pluginsDir, 'cards', {
  code: `
const { parentPort } = require('node:worker_threads');
const CARDS = { group: 'cards.example.com', version: 'v1alpha1', plural: 'cards' };
const ROLES = { group: '', version: 'v1alpha1', plural: 'roles' };
// A refusal answers as the apiserver's Status, so the test sees what the plugin was told.
const relay = (call) => call.then(
  (value) => value,
  (err) => err.status ? new Response(JSON.stringify(err.status), { status: err.status.code })
    : new Response(JSON.stringify({ failed: String(err.message) }), { status: 502 }));
const statusOf = (call) => call.then(() => 200, (err) => (err.status ? err.status.code : String(err.message)));
// A read posted to the host by hand, as plugin code could: whatever it claims, the host decides whom it acts for.
let forged = 2e9;
function forgedRead(message) {
  const id = ++forged;
  return new Promise((resolve) => {
    const listen = (received) => {
      const mine = (received.type === 'batch' ? received.messages : [received])
        .find((m) => m.type === 'read-answer' && m.id === id);
      if (!mine) return;
      parentPort.off('message', listen);
      resolve(mine);
    };
    parentPort.on('message', listen);
    parentPort.postMessage({ ...message, type: 'api-read', id });
  });
}
module.exports = {
  async start(ctx) {
    await ctx.schemes.register({
      group: 'cards.example.com', version: 'v1alpha1',
      names: { kind: 'Card', singular: 'card', plural: 'cards' },
      schema: { type: 'object', properties: { spec: { type: 'object', properties: { by: { type: 'string' } } } } },
    }, [{ name: 'spec.by', path: 'spec.by' }]);
    ctx.routes.get('/apis/cards.example.com/v1alpha1/mine/{name}', (req) => relay(req.client.get(CARDS, req.params.name)));
    ctx.routes.get('/apis/cards.example.com/v1alpha1/any/{name}', (req) => relay(ctx.client.get(CARDS, req.params.name)));
    ctx.routes.get('/apis/cards.example.com/v1alpha1/roles', () => relay(ctx.client.list(ROLES).then((l) => l.items.length)));
    ctx.routes.get('/apis/cards.example.com/v1alpha1/escape', async () => ({
      name: await statusOf(ctx.client.get(CARDS, '../../../api/v1alpha1/roles')),
      dots: await statusOf(ctx.client.get(CARDS, '..')),
      group: await statusOf(ctx.client.list({ ...ROLES, group: 'cards.example.com/v1alpha1/../../../api' })),
    }));
    ctx.routes.get('/apis/cards.example.com/v1alpha1/forged', async (req) => {
      const roles = { verb: 'list', group: '', version: 'v1alpha1', resource: 'roles', options: {} };
      const admin = { name: 'admin', groups: ['authenticated', 'system:masters'] };
      const asPlugin = await forgedRead({ read: roles, user: admin, caller: admin });
      const stale = await forgedRead({ read: roles, onBehalfOf: 987654 });
      // The answer crosses as JSON text (pkg/plugin/protocol.ts).
      return { asPlugin: JSON.parse(asPlugin.answer), stale: stale.error };
    });
  },
};`,
});

const captured = captureLog('info');
let server: RunningApiServer;
let suite: RbacApi;
let owner: ReturnType<RbacApi['as']>;
let stranger: ReturnType<RbacApi['as']>;

beforeAll(async () => {
  server = await startTestApiServer({ authorizationMode: 'RBAC', pluginsDir }, captured.log);
  suite = rbacApi(server);
  await waitFor(
    async () =>
      (await suite.admin('GET', '/apis/plugin.svc.run/v1alpha1/plugins/cards')).body?.status?.phase === 'STARTED',
    { timeoutMs: 20_000, what: 'plugin cards to start' },
  );
  for (const [name, by] of [
    ['ada-1', 'ada'],
    ['bob-1', 'bob'],
  ]) {
    const card = { apiVersion: 'cards.example.com/v1alpha1', kind: 'Card', metadata: { name }, spec: { by } };
    expectStatus(await suite.admin('POST', `${CARDS}/cards`, card), 201, `writing ${name}`);
  }
  const routes = {
    apiGroups: ['cards.example.com'],
    resources: ['mine', 'any', 'roles', 'escape', 'forged'],
    verbs: ['*'],
  };
  await createRole(suite, 'card-owner', [
    routes,
    {
      apiGroups: ['cards.example.com'],
      resources: ['cards'],
      verbs: ['get'],
      where: { fieldSelector: 'spec.by=${user.name}' },
    },
  ]);
  await createRole(suite, 'card-routes', [routes]);
  owner = await createUser(suite, 'ada');
  stranger = await createUser(suite, 'stranger');
  await bind(suite, 'ada', 'card-owner');
  await bind(suite, 'stranger', 'card-routes');
  await waitFor(async () => (await owner('GET', `${CARDS}/mine/ada-1`)).status === 200, {
    what: 'ada’s role to count',
  });
}, 60_000);

afterAll(async () => {
  await stopControllerManagers(server.url);
  await server.stop();
});

/** The access-log lines of requests to `path`, from line `from` of the log on. */
const accessLines = (path: string, from = 0) =>
  captured.lines.slice(from).filter((l) => l.msg === 'request' && l.path === path);

describe("a plugin's reads answered in process", () => {
  it('answer as the caller: their own card, 404 for another, as a GET of theirs over HTTP does', async () => {
    expect((await owner('GET', `${CARDS}/mine/ada-1`)).body).toMatchObject({ metadata: { name: 'ada-1' } });
    const other = await owner('GET', `${CARDS}/mine/bob-1`);
    const direct = await owner('GET', `${CARDS}/cards/bob-1`);
    expect(other.status).toBe(404);
    expect(other.body).toEqual(direct.body);
  });

  it('refuse with the same Status fields as the same read over HTTP', async () => {
    const viaRoute = await stranger('GET', `${CARDS}/mine/ada-1`);
    const direct = await stranger('GET', `${CARDS}/cards/ada-1`);
    expect(viaRoute.status).toBe(403);
    expect(direct.status).toBe(403);
    expect(viaRoute.body).toEqual(direct.body);
    expect(viaRoute.body.message).toContain('User "stranger" cannot get resource "cards"');
    const plugin = await suite.admin('GET', `${CARDS}/roles`);
    expect(plugin.status).toBe(403);
    expect(plugin.body.message).toContain('User "system:plugin:cards" cannot list resource "roles"');
  });

  it('write no access-log line of their own: only the route request is logged', async () => {
    const from = captured.lines.length;
    expect((await suite.admin('GET', `${CARDS}/any/bob-1`)).body).toMatchObject({ metadata: { name: 'bob-1' } });
    await waitFor(async () => accessLines(`${CARDS}/any/bob-1`, from).length === 1, {
      what: "the route's access-log line",
    });
    expect(accessLines(`${CARDS}/cards/bob-1`, from)).toEqual([]);
  });

  it('cannot leave the resource path with a crafted name or group: those go the request path and are 400', async () => {
    const escaped = await suite.admin('GET', `${CARDS}/escape`);
    expect(escaped.body).toEqual({ name: 400, dots: 400, group: 400 });
  });

  it('act for whom the host knows, whatever a read posted by hand claims', async () => {
    const forged = await suite.admin('GET', `${CARDS}/forged`);
    expect(forged.body.asPlugin.status).toMatchObject({ code: 403, reason: 'Forbidden' });
    expect(forged.body.asPlugin.status.message).toContain('User "system:plugin:cards" cannot list resource "roles"');
    expect(forged.body.stale).toMatch(/request 987654 has been answered/);
  });
});
