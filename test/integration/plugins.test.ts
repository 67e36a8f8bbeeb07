import { bind, createRole, createUser, expectStatus, useRbacApi } from '../support/security';
import { waitFor } from '../support/wait-for';
import { usePluginsDir, writePlugin } from '../support/plugin-folder';

// Plugins (docs/plugins.md, first increment): a plugin folder's code runs in a worker thread; its model is served,
// its routes answer through authentication and authorisation; a plugin that loops, throws or asks for what it
// may not have is FAILED while the apiserver keeps serving.
const PLUGINS = '/apis/plugin.svc.run/v1alpha1/plugins';
const GROUP = '/apis/people.example.com/v1alpha1';

const pluginsDir = usePluginsDir('svc-plugins');

writePlugin(pluginsDir, 'people', {
  version: '1.2.0',
  code: `
module.exports = {
  async start(ctx) {
    ctx.log.info('starting', { greeting: ctx.plugin.settings.greeting });
    await ctx.schemes.register({
      group: 'people.example.com', version: 'v1alpha1',
      names: { kind: 'Contact', singular: 'contact', plural: 'contacts' },
      schema: { type: 'object', properties: { spec: { type: 'object', properties: { email: { type: 'string' } } } } },
    }, (ix) => ix.add({ name: 'email', path: 'spec.email', unique: true }));
    ctx.routes.get('/apis/people.example.com/v1alpha1/hello/{name}', (req) =>
      ({ greeting: ctx.plugin.settings.greeting + ', ' + req.params.name, user: req.user.name, plugin: ctx.plugin.name + '@' + ctx.plugin.version }));
    ctx.routes.add({ method: 'POST', path: '/apis/people.example.com/v1alpha1/echo', contentTypes: ['text/plain'] }, async (req) =>
      new Response((await req.text()).toUpperCase(), { status: 201, headers: { 'content-type': 'text/plain', 'x-echo': req.headers.get('x-echo') || '' } }));
    ctx.routes.get('/apis/people.example.com/v1alpha1/boom', () => { throw new Error('the secret database password is hunter2'); });
    ctx.routes.get('/apis/people.example.com/v1alpha1/slow', () => new Promise(() => {}));
  },
};`,
  spec: '  settings: {greeting: Hello}\n',
});
writePlugin(pluginsDir, 'looper', { code: 'module.exports = { start() { for (;;) {} } };' });
writePlugin(pluginsDir, 'broken', {
  code: 'module.exports = { async start() { throw new Error("no database configured"); } };',
});
writePlugin(pluginsDir, 'squatter', {
  code: `module.exports = { async start(ctx) {
  await ctx.schemes.register({ group: 'content.svc.run', version: 'v1alpha1', names: { kind: 'Post', plural: 'posts' } });
} };`,
});
writePlugin(pluginsDir, 'quitter', {
  code: `module.exports = { start(ctx) {
  ctx.routes.get('/apis/quit.example.com/v1alpha1/quit', () => process.exit(3));
} };`,
});
// The hog's thread turns between allocations, so that it keeps answering liveness checks however slowly a loaded
// machine lets it reach its limit: only the memory limit can end it (a blocked thread is the spinner's case).
writePlugin(pluginsDir, 'hog', {
  code: `module.exports = { start(ctx) {
  ctx.routes.get('/apis/hog.example.com/v1alpha1/hogs', () => new Promise(() => {
    const held = [];
    const grow = () => { held.push(new Array(1e6).fill(1)); setImmediate(grow); };
    grow();
  }));
} };`,
});
writePlugin(pluginsDir, 'voider', {
  code: `module.exports = { async start(ctx) {
  await ctx.schemes.register({ group: '', version: 'v1alpha1', names: { kind: 'Thing', plural: 'things' } });
} };`,
});
writePlugin(pluginsDir, 'spinner', {
  code: `module.exports = { start(ctx) {
  ctx.routes.get('/apis/spin.example.com/v1alpha1/loops', () => { for (;;) {} });
  ctx.routes.get('/apis/spin.example.com/v1alpha1/pings', () => ({ pong: true }));
} };`,
});
writePlugin(pluginsDir, 'future', { spec: '  requires: ">=99.0.0"\n' });
writePlugin(pluginsDir, 'toggle', {
  code: `module.exports = { start(ctx) {
  ctx.routes.get('/apis/toggle.example.com/v1alpha1/pings', () => ({ pong: true }));
} };`,
  extensions: {
    'roles.yaml':
      'apiVersion: v1alpha1\nkind: Role\nmetadata: {name: toggle-pinger}\nrules: []\n---\napiVersion: v1alpha1\nkind: Role\nmetadata: {name: toggle-other}\n',
  },
});
writePlugin(pluginsDir, 'off', {
  code: 'module.exports = { start() { throw new Error("never run"); } };',
  spec: '  enabled: false\n',
});

// A small heap for every plugin, so that the hog reaches its limit in a few of its allocations.
const suite = useRbacApi({
  pluginsDir,
  pluginStartTimeoutSeconds: 3,
  pluginRouteTimeoutSeconds: 1,
  pluginMemoryMb: 64,
});

/** Waits until the Plugin's phase is one of the final ones; returns the object. */
const settled = (name: string) =>
  waitFor(
    async () => {
      const res = await suite.admin('GET', `${PLUGINS}/${name}`);
      return res.status === 200 && ['STARTED', 'FAILED', 'STOPPED'].includes(res.body.status?.phase)
        ? res.body
        : undefined;
    },
    { timeoutMs: 20_000, what: `plugin ${name} to settle` },
  );

describe('a plugin that registers a model and routes', () => {
  it('is STARTED, with its Plugin object carrying plugin.yaml and its status', async () => {
    const plugin = await settled('people');
    expect(plugin.spec).toMatchObject({
      version: '1.2.0',
      requires: '*',
      enabled: true,
      settings: { greeting: 'Hello' },
    });
    expect(plugin.status).toMatchObject({
      phase: 'STARTED',
      message: '',
      extensions: [],
      conditions: [{ type: 'Ready', status: 'True' }],
    });
  });

  it('has its model served, with its declared unique index enforced', async () => {
    await settled('people');
    const contact = (name: string, email: string) => ({
      apiVersion: 'people.example.com/v1alpha1',
      kind: 'Contact',
      metadata: { name },
      spec: { email },
    });
    expectStatus(
      await suite.admin('POST', `${GROUP}/contacts`, contact('ada', 'ada@example.com')),
      201,
      'creating a contact',
    );
    expect((await suite.admin('GET', `${GROUP}/contacts/ada`)).body.spec.email).toBe('ada@example.com');
    expect((await suite.admin('POST', `${GROUP}/contacts`, contact('ada2', 'ada@example.com'))).status).toBe(409);
  });

  it('answers its route for the admin, refuses a user without a role, and answers them once a role grants it', async () => {
    await settled('people');
    const hello = await suite.admin('GET', `${GROUP}/hello/ada`);
    expect(hello.status).toBe(200);
    expect(hello.headers.get('content-type')).toBe('application/json');
    expect(hello.body).toEqual({ greeting: 'Hello, ada', user: 'admin', plugin: 'people@1.2.0' });
    expect((await suite.anonymous('GET', `${GROUP}/hello/ada`)).status).toBe(401);
    const carol = await createUser(suite, 'carol');
    const denied = await carol('GET', `${GROUP}/hello/ada`);
    expect(denied.status).toBe(403);
    expect(denied.body.message).toContain('User "carol" cannot get resource "hello" in API group "people.example.com"');
    await createRole(suite, 'hello-caller', [
      { apiGroups: ['people.example.com'], resources: ['hello'], verbs: ['get'] },
    ]);
    await bind(suite, 'carol', 'hello-caller');
    expect((await carol('GET', `${GROUP}/hello/carol`)).body).toMatchObject({
      greeting: 'Hello, carol',
      user: 'carol',
    });
  });

  it("sends a handler's Response back with its status, headers and body, and hands the handler the request body", async () => {
    await settled('people');
    const echo = await suite.admin('POST', `${GROUP}/echo`, 'shout this', {
      'Content-Type': 'text/plain',
      'X-Echo': 'yes',
    });
    expect(echo.status).toBe(201);
    expect(echo.text).toBe('SHOUT THIS');
    expect(echo.headers.get('x-echo')).toBe('yes');
    expect(echo.headers.get('content-type')).toBe('text/plain');
  });

  it('answers a throwing handler with a 500 Status that carries no stack or message of the plugin', async () => {
    await settled('people');
    const boom = await suite.admin('GET', `${GROUP}/boom`);
    expect(boom.status).toBe(500);
    expect(boom.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'InternalError', code: 500 });
    expect(boom.text).not.toContain('hunter2');
    expect(boom.text).not.toMatch(/\bat .*\.js:\d+/);
  });

  it('answers a handler that never answers with a 504, and keeps answering afterwards', async () => {
    await settled('people');
    const slow = await suite.admin('GET', `${GROUP}/slow`);
    expect(slow.status).toBe(504);
    expect(slow.body).toMatchObject({ kind: 'Status', reason: 'Timeout', code: 504 });
    expect((await suite.admin('GET', `${GROUP}/hello/bob`)).status).toBe(200);
  });

  it('leaves paths and methods it did not register to the generated API', async () => {
    await settled('people');
    expect((await suite.admin('POST', `${GROUP}/hello/ada`, {})).status).toBe(404);
    expect((await suite.admin('GET', `${GROUP}/hello/ada/more`)).status).toBe(404);
  });
});

describe('enabling and disabling a plugin through its Plugin object', () => {
  const PINGS = '/apis/toggle.example.com/v1alpha1/pings';
  const setEnabled = (enabled: boolean) =>
    suite.admin(
      'PATCH',
      `${PLUGINS}/toggle`,
      { spec: { enabled } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
  const phaseOf = (phase: string) =>
    waitFor(
      async () => {
        const res = await suite.admin('GET', `${PLUGINS}/toggle`);
        return res.body.status?.phase === phase ? res.body : undefined;
      },
      { timeoutMs: 20_000, what: `toggle to be ${phase}` },
    );

  it('stops the plugin on spec.enabled: false (its routes go) and starts it again on true', async () => {
    expect((await settled('toggle')).status.phase).toBe('STARTED');
    expect((await suite.admin('GET', PINGS)).body).toEqual({ pong: true });
    expectStatus(await setEnabled(false), 200, 'disabling toggle');
    expect((await phaseOf('STOPPED')).status).toMatchObject({
      message: 'disabled: spec.enabled is false',
      conditions: [{ type: 'Ready', status: 'False' }],
    });
    expect((await suite.admin('GET', PINGS)).status).toBe(404);
    expectStatus(await setEnabled(true), 200, 'enabling toggle');
    await phaseOf('STARTED');
    expect((await suite.admin('GET', PINGS)).body).toEqual({ pong: true });
  });

  it('serves the objects of its extensions/ folder at …/plugins/<name>/extensions, for reading only', async () => {
    const res = await suite.admin('GET', `${PLUGINS}/toggle/extensions`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((o: { metadata: { name: string } }) => o.metadata.name)).toEqual([
      'toggle-pinger',
      'toggle-other',
    ]);
    expect((await suite.admin('GET', `${PLUGINS}/people/extensions`)).body).toEqual({ items: [] });
    expect((await suite.admin('GET', `${PLUGINS}/nothing/extensions`)).status).toBe(404);
    expect((await suite.admin('PUT', `${PLUGINS}/toggle/extensions`, {})).status).toBe(405);
    expect((await suite.anonymous('GET', `${PLUGINS}/toggle/extensions`)).status).toBe(401);
  });
});

describe('a Plugin object that names no installed plugin', () => {
  const phaseOf = (name: string, phase: string) =>
    waitFor(
      async () => {
        const res = await suite.admin('GET', `${PLUGINS}/${name}`);
        return res.body.status?.phase === phase ? res.body : undefined;
      },
      { timeoutMs: 20_000, what: `${name} to be ${phase}` },
    );

  it('is PENDING, its Ready condition saying NotInstalled, until a plugin of that name is put in the folder', async () => {
    // Made once the host has started: a start removes the Plugin objects of plugins the folder does not hold.
    await settled('toggle');
    const created = await suite.admin('POST', PLUGINS, {
      apiVersion: 'plugin.svc.run/v1alpha1',
      kind: 'Plugin',
      metadata: { name: 'late' },
      spec: { version: '1.0.0' },
    });
    expectStatus(created, 201, 'creating the Plugin object');
    const pending = await phaseOf('late', 'PENDING');
    expect(pending.status.message).toMatch(
      /^no plugin named "late" is installed: put its folder or \.tgz into the plugins folder/,
    );
    expect(pending.status.conditions).toEqual([
      expect.objectContaining({ type: 'Ready', status: 'False', reason: 'NotInstalled' }),
    ]);

    writePlugin(pluginsDir, 'late', { code: `module.exports = { start(ctx) { ctx.log.info('late but here'); } };` });
    const started = await phaseOf('late', 'STARTED');
    expect(started.status.conditions).toEqual([expect.objectContaining({ type: 'Ready', status: 'True' })]);
  });
});

describe('a plugin that fails', () => {
  it('is FAILED when its start loops forever, and the apiserver answers meanwhile and afterwards', async () => {
    expect((await suite.admin('GET', '/readyz')).status).toBe(200);
    const plugin = await settled('looper');
    expect(plugin.status).toMatchObject({
      phase: 'FAILED',
      conditions: [{ type: 'Ready', status: 'False', reason: 'FAILED' }],
    });
    expect(plugin.status.message).toBe('start did not finish within 3s');
    expect((await suite.admin('GET', PLUGINS)).status).toBe(200);
  });

  it('is FAILED when its worker exits after starting: the request is a 500, its routes go, the apiserver stays', async () => {
    expect((await settled('quitter')).status.phase).toBe('STARTED');
    expect((await suite.admin('GET', '/apis/quit.example.com/v1alpha1/quit')).status).toBe(500);
    const failed = await waitFor(
      async () => {
        const res = await suite.admin('GET', `${PLUGINS}/quitter`);
        return res.body.status?.phase === 'FAILED' ? res.body : undefined;
      },
      { what: 'quitter to be FAILED' },
    );
    expect(failed.status.message).toBe("the plugin's worker exited (code 3)");
    expect((await suite.admin('GET', '/apis/quit.example.com/v1alpha1/quit')).status).toBe(404);
    expect((await suite.admin('GET', `${GROUP}/hello/ada`)).status).toBe(200);
  });

  it('is FAILED when it allocates past its memory limit: its worker ends, not the apiserver', async () => {
    expect((await settled('hog')).status.phase).toBe('STARTED');
    // Answered 500 when the worker dies first, 504 when the route timeout (1 s here) comes first.
    expect([500, 504]).toContain((await suite.admin('GET', '/apis/hog.example.com/v1alpha1/hogs')).status);
    const failed = await waitFor(
      async () => {
        const res = await suite.admin('GET', `${PLUGINS}/hog`);
        return res.body.status?.phase === 'FAILED' ? res.body : undefined;
      },
      { what: 'hog to be FAILED' },
    );
    expect(failed.status.message).toContain('memory limit');
    expect((await suite.admin('GET', '/apis/hog.example.com/v1alpha1/hogs')).status).toBe(404);
    expect((await suite.admin('GET', `${GROUP}/hello/ada`)).status).toBe(200);
  });

  it('is FAILED with the message when its start throws', async () => {
    expect((await settled('broken')).status).toMatchObject({
      phase: 'FAILED',
      message: 'start failed: no database configured',
    });
  });

  it('is FAILED when it registers a model in a platform group, which is not served', async () => {
    const plugin = await settled('squatter');
    expect(plugin.status.phase).toBe('FAILED');
    expect(plugin.status.message).toContain(
      'model posts.content.svc.run: group "content.svc.run" belongs to the platform',
    );
    expect((await suite.admin('GET', '/apis/content.svc.run/v1alpha1/posts')).status).toBe(404);
  });

  it("is FAILED when it registers a model in the empty group, which is the platform's too", async () => {
    expect((await settled('voider')).status).toMatchObject({
      phase: 'FAILED',
      message: expect.stringContaining('model things: group "" belongs to the platform (empty or *.svc.run)'),
    });
  });

  it('is FAILED when a route handler blocks its thread: the route is a 504, the thread is ended, enabling restarts it', async () => {
    const SPIN = '/apis/spin.example.com/v1alpha1';
    const phaseOf = (phase: string) =>
      waitFor(
        async () => {
          const res = await suite.admin('GET', `${PLUGINS}/spinner`);
          return res.body.status?.phase === phase ? res.body : undefined;
        },
        { timeoutMs: 20_000, what: `spinner to be ${phase}` },
      );
    const setEnabled = (enabled: boolean) =>
      suite.admin(
        'PATCH',
        `${PLUGINS}/spinner`,
        { spec: { enabled } },
        { 'Content-Type': 'application/merge-patch+json' },
      );
    expect((await settled('spinner')).status.phase).toBe('STARTED');
    expect((await suite.admin('GET', `${SPIN}/pings`)).body).toEqual({ pong: true });
    expect((await suite.admin('GET', `${SPIN}/loops`)).status).toBe(504);
    expect((await phaseOf('FAILED')).status.message).toBe(
      `route GET ${SPIN}/loops did not answer within 1s and the plugin's thread stayed blocked ` +
        '(no answer to a liveness check within 2s); the thread was terminated',
    );
    // Its routes are out of service, as those of any failed plugin; the apiserver serves on.
    expect((await suite.admin('GET', `${SPIN}/pings`)).status).toBe(404);
    expect((await suite.admin('GET', `${GROUP}/hello/ada`)).status).toBe(200);
    expectStatus(await setEnabled(false), 200, 'disabling spinner');
    await phaseOf('STOPPED');
    expectStatus(await setEnabled(true), 200, 'enabling spinner');
    await phaseOf('STARTED');
    expect((await suite.admin('GET', `${SPIN}/pings`)).body).toEqual({ pong: true });
  });

  it('is FAILED when the platform version does not meet spec.requires', async () => {
    expect((await settled('future')).status).toMatchObject({
      phase: 'FAILED',
      message: expect.stringContaining('requires platform version >=99.0.0'),
    });
  });

  it('is STOPPED, never started, when spec.enabled is false', async () => {
    expect((await settled('off')).status).toMatchObject({
      phase: 'STOPPED',
      message: 'disabled: spec.enabled is false',
    });
  });
});
