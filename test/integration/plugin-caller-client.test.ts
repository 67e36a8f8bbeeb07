import { bind, createRole, createUser, expectStatus, useRbacApi } from '../support/security';
import { waitFor } from '../support/wait-for';
import { usePluginsDir, writePlugin } from '../support/plugin-folder';

// req.client (docs/plugins.md): a route handler calls the apiserver as the user who called its route, with exactly
// that user's rights (conditional rules included), and only until it answers; ctx.client stays the plugin's own.
const MEMOS = '/apis/memos.example.com/v1alpha1';

const pluginsDir = usePluginsDir('svc-plugin-caller');
writePlugin(pluginsDir, 'memos', {
  code: `
const MEMOS = { group: 'memos.example.com', version: 'v1alpha1', plural: 'memos' };
const ROLES = { group: '', version: 'v1alpha1', plural: 'roles' };
// A refusal answers as the apiserver's Status, so the test sees what the caller was told.
const relay = (call) => call.then(
  (value) => value,
  (err) => err.status ? new Response(JSON.stringify(err.status), { status: err.status.code })
    : new Response(JSON.stringify({ failed: String(err.message) }), { status: 502 }));
let kept;
module.exports = {
  async start(ctx) {
    await ctx.schemes.register({
      group: 'memos.example.com', version: 'v1alpha1',
      names: { kind: 'Memo', singular: 'memo', plural: 'memos' },
      schema: { type: 'object', properties: { spec: { type: 'object', properties: { by: { type: 'string' } } } } },
    }, [{ name: 'spec.by', path: 'spec.by' }]);
    const names = (list) => list.items.map((m) => m.metadata.name).sort();
    ctx.routes.get('/apis/memos.example.com/v1alpha1/mine', (req) => relay(req.client.list(MEMOS).then(names)));
    ctx.routes.get('/apis/memos.example.com/v1alpha1/all', () => relay(ctx.client.list(MEMOS).then(names)));
    ctx.routes.post('/apis/memos.example.com/v1alpha1/write', async (req) => {
      const { name, by } = await req.json();
      const memo = { apiVersion: 'memos.example.com/v1alpha1', kind: 'Memo', metadata: { name }, spec: { by } };
      return relay(req.client.create(MEMOS, memo).then((m) => m.metadata.name));
    });
    ctx.routes.get('/apis/memos.example.com/v1alpha1/roles', (req) =>
      relay(req.client.impersonating('admin').list(ROLES).then((list) => list.items.length)));
    ctx.routes.get('/apis/memos.example.com/v1alpha1/watch', (req) =>
      relay(req.client.watch(MEMOS, {}).then(() => 'watched')));
    ctx.routes.post('/apis/memos.example.com/v1alpha1/keep', (req) => { kept = req.client; return 'kept'; });
    ctx.routes.get('/apis/memos.example.com/v1alpha1/kept', () => relay(kept.list(MEMOS).then(names)));
  },
};`,
});

const suite = useRbacApi({ pluginsDir });
let reader: Awaited<ReturnType<typeof createUser>>;
let stranger: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  await waitFor(
    async () =>
      (await suite.admin('GET', '/apis/plugin.svc.run/v1alpha1/plugins/memos')).body?.status?.phase === 'STARTED',
    { timeoutMs: 20_000, what: 'plugin memos to start' },
  );
  for (const [name, by] of [
    ['ada-1', 'ada'],
    ['ada-2', 'ada'],
    ['bob-1', 'bob'],
  ]) {
    expectStatus(await suite.admin('POST', `${MEMOS}/write`, { name, by }), 200, `writing ${name}`);
  }
  const routes = {
    apiGroups: ['memos.example.com'],
    resources: ['mine', 'all', 'write', 'roles', 'watch', 'keep', 'kept'],
    verbs: ['*'],
  };
  // ada may read and write her own memos; stranger may call the routes and nothing else.
  await createRole(suite, 'memo-owner', [
    routes,
    {
      apiGroups: ['memos.example.com'],
      resources: ['memos'],
      verbs: ['list', 'create'],
      where: { fieldSelector: 'spec.by=${user.name}' },
    },
  ]);
  await createRole(suite, 'memo-routes', [routes]);
  reader = await createUser(suite, 'ada');
  stranger = await createUser(suite, 'stranger');
  await bind(suite, 'ada', 'memo-owner');
  await bind(suite, 'stranger', 'memo-routes');
  await waitFor(async () => (await reader('GET', `${MEMOS}/mine`)).status === 200, { what: 'ada’s role to count' });
}, 60_000);

describe("a plugin route's req.client", () => {
  it("acts as the caller: a conditional rule narrows the list, where the plugin's own client sees every memo", async () => {
    expect((await reader('GET', `${MEMOS}/mine`)).body).toEqual(['ada-1', 'ada-2']);
    expect((await reader('GET', `${MEMOS}/all`)).body).toEqual(['ada-1', 'ada-2', 'bob-1']);
    expect((await suite.admin('GET', `${MEMOS}/mine`)).body).toEqual(['ada-1', 'ada-2', 'bob-1']);
  });

  it('is refused what the caller may not do, named as the caller, not as the plugin', async () => {
    const listed = await stranger('GET', `${MEMOS}/mine`);
    expect(listed.status).toBe(403);
    expect(listed.body.message).toContain('User "stranger" cannot list resource "memos"');
    const written = await reader('POST', `${MEMOS}/write`, { name: 'for-bob', by: 'bob' });
    expect(written.status).toBe(403);
    expect((await reader('POST', `${MEMOS}/write`, { name: 'ada-3', by: 'ada' })).body).toBe('ada-3');
    expect((await suite.admin('GET', `${MEMOS}/all`)).body).not.toContain('for-bob');
  });

  it("is audited as the caller's, saying which plugin made the call for which of the caller's requests", async () => {
    const written = await reader('POST', `${MEMOS}/write`, { name: 'ada-audited', by: 'ada' });
    expect(written.body).toBe('ada-audited');
    const routeRequest = written.headers.get('x-request-id');
    const records = await waitFor(
      async () => {
        const events = await suite.admin('GET', '/apis/audit.svc.run/v1alpha1/events?user=ada&verb=create');
        // A create's record names no object (its name is in the body), as Kubernetes' audit does.
        const found = (events.body?.items ?? []).filter(
          (e: { resource: string; via?: { requestId: string } }) =>
            e.resource === 'memos' && e.via?.requestId === routeRequest,
        );
        return found.length > 0 ? found : undefined;
      },
      { what: "the audit record of ada's memo" },
    );
    expect(records[0]).toMatchObject({
      user: 'ada',
      authenticatedBy: 'plugin',
      decision: 'allow',
      via: { plugin: 'system:plugin:memos', requestId: routeRequest },
    });
    // The route request itself is ada's own, through no plugin.
    const route = await suite.admin('GET', '/apis/audit.svc.run/v1alpha1/events?user=ada&resource=write');
    const own = (route.body?.items ?? []).find((e: { requestId: string }) => e.requestId === routeRequest);
    expect(own).toMatchObject({ user: 'ada', authenticatedBy: 'password' });
    expect(own.via).toBeUndefined();
  });

  it('stays the caller whatever the plugin puts on it (impersonation of another user)', async () => {
    const roles = await stranger('GET', `${MEMOS}/roles`);
    expect(roles.status).toBe(403);
    expect(roles.body.message).toContain('User "stranger" cannot list resource "roles"');
  });

  it('cannot watch, and stops acting for the caller once the route has answered', async () => {
    const watched = await reader('GET', `${MEMOS}/watch`);
    expect(watched.status).toBe(502);
    expect(watched.body.failed).toContain('req.client cannot watch');
    expect((await reader('POST', `${MEMOS}/keep`, {})).body).toBe('kept');
    const late = await stranger('GET', `${MEMOS}/kept`);
    expect(late.status).toBe(502);
    expect(late.body.failed).toMatch(/request \d+ has been answered/);
  });
});
