import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApiServer, type RunningApiServer } from '../../pkg/server/app';
import { client, TEST_ADMIN_PASSWORD, type ApiClient } from '../support/apiserver';
import { captureLog, type CapturedLog } from '../support/log-capture';
import { sharedRedisUrl, uniqueKeyPrefix } from '../support/redis';
import { basic } from '../support/security';
import { waitFor } from '../support/wait-for';
import { matchRoute } from '../../pkg/plugin/route-pattern';
import { writePlugin } from '../support/plugin-folder';

// The route matcher, counted: the module's own function behind a jest.fn, so that a case can see each pattern a
// request was matched against. (A module mock rather than jest.spyOn on the module's exports: how a transpiler
// defines a module's exports, as plain properties or as getters that cannot be redefined, is its own business.)
jest.mock('../../pkg/plugin/route-pattern', () => {
  const actual = jest.requireActual<typeof import('../../pkg/plugin/route-pattern')>('../../pkg/plugin/route-pattern');
  return { ...actual, matchRoute: jest.fn(actual.matchRoute) };
});
const countedMatchRoute = matchRoute as jest.MockedFunction<typeof matchRoute>;

// Plugin routes (docs/plugins.md): the annotation style (decorators from 'svc/plugin', or static fields in plain
// JavaScript), a class without an API version ignored with a warning, routes chosen by their accept media type
// (406 when none fits), two plugins claiming one model or one route (the second FAILED naming the first), and a
// plugin flooding the log rate-limited.
const PLUGINS = '/apis/plugin.svc.run/v1alpha1/plugins';
const pluginsDir = mkdtempSync(join(tmpdir(), 'svc-plugin-routes-'));

// What TypeScript emits for @ApiVersion/@Get with "experimentalDecorators", written out by hand.
writePlugin(pluginsDir, 'annotated', {
  code: `const { ApiVersion, Get, Post } = require('svc/plugin');
class Directory {
  constructor(greeting) { this.greeting = greeting; }
  entry(req) { return { greeting: this.greeting + ', ' + req.params.name }; }
  async add(req) { return new Response(await req.text(), { status: 201 }); }
}
Get('/directory/{name}')(Directory.prototype, 'entry', Object.getOwnPropertyDescriptor(Directory.prototype, 'entry'));
Post('/directory', undefined, ['text/plain'])(Directory.prototype, 'add', Object.getOwnPropertyDescriptor(Directory.prototype, 'add'));
ApiVersion('annotated.example.com/v1alpha1')(Directory);

class Plain {
  static apiVersion = 'annotated.example.com/v1beta1';
  static routes = [{ method: 'GET', path: '/plain', handler: 'list' }];
  list() { return ['a', 'b']; }
}
class Versionless {
  static routes = [{ method: 'GET', path: '/lost', handler: 'lost' }];
  lost() { return 'never'; }
}
module.exports = { start(ctx) {
  ctx.routes.controller(new Directory('Hi'));
  ctx.routes.controller(new Plain());
  ctx.routes.controller(new Versionless());
  ctx.routes.add({ method: 'GET', path: '/apis/annotated.example.com/v1alpha1/reports' }, () => ({ format: 'json' }));
  ctx.routes.add({ method: 'GET', path: '/apis/annotated.example.com/v1alpha1/reports', accept: 'text/csv' },
    () => new Response('format\\ncsv\\n', { headers: { 'content-type': 'text/csv' } }));
  ctx.routes.add({ method: 'GET', path: '/apis/annotated.example.com/v1alpha1/charts', accept: 'image/svg+xml' },
    () => new Response('<svg/>', { headers: { 'content-type': 'image/svg+xml' } }));
} };`,
});
const model = (group: string) => `{ group: '${group}', version: 'v1', names: { kind: 'Thing', plural: 'things' } }`;
writePlugin(pluginsDir, 'first', {
  code: `module.exports = { async start(ctx) {
  await ctx.schemes.register(${model('shared.example.com')});
  ctx.routes.get('/apis/routes.example.com/v1/pings', () => ({ from: 'first' }));
} };`,
});
writePlugin(pluginsDir, 'chatty', {
  code: `module.exports = { start(ctx) {
  ctx.routes.post('/apis/chatty.example.com/v1/floods', () => { for (let i = 0; i < 1000; i++) ctx.log.info('flood ' + i); return { sent: 1000 }; });
} };`,
});

let server: RunningApiServer;
let admin: ApiClient;
let captured: CapturedLog;

beforeAll(async () => {
  captured = captureLog('info');
  server = await startApiServer(
    {
      listen: '127.0.0.1:0',
      authorizationMode: 'RBAC',
      adminPassword: TEST_ADMIN_PASSWORD,
      maxBodyBytes: 3 * 1024 * 1024,
      watchTimeoutSeconds: 1800,
      watchRetention: 100000,
      pluginRescanSeconds: 1,
      store: `${sharedRedisUrl()}?keyPrefix=${uniqueKeyPrefix('plugin-routes')}`,
      pluginsDir,
    },
    captured.log,
  );
  admin = client(server.url, basic('admin', TEST_ADMIN_PASSWORD));
  await server.plugins?.started;
});
afterAll(async () => {
  await server.stop();
  rmSync(pluginsDir, { recursive: true, force: true });
});

const plugin = async (name: string) => (await admin('GET', `${PLUGINS}/${name}`)).body;

describe('the annotation style', () => {
  it('mounts decorated methods at /apis/<group>/<version><path>, called on the instance', async () => {
    expect((await plugin('annotated')).status.phase).toBe('STARTED');
    const entry = await admin('GET', '/apis/annotated.example.com/v1alpha1/directory/ada');
    expect(entry.status).toBe(200);
    expect(entry.body).toEqual({ greeting: 'Hi, ada' });
    const added = await admin('POST', '/apis/annotated.example.com/v1alpha1/directory', 'posted', {
      'Content-Type': 'text/plain',
    });
    expect(added.status).toBe(201);
    expect(added.text).toBe('posted');
    // Only the types the route declares besides JSON and YAML: a form is still refused before the plugin runs.
    const form = await admin('POST', '/apis/annotated.example.com/v1alpha1/directory', 'a=1', {
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
  });

  it('mounts the static apiVersion and routes of a plain JavaScript class', async () => {
    expect((await admin('GET', '/apis/annotated.example.com/v1beta1/plain')).body).toEqual(['a', 'b']);
  });

  it('ignores a class without an API version, with a warning in the Plugin message', async () => {
    const { status } = await plugin('annotated');
    expect(status.phase).toBe('STARTED');
    expect(status.message).toBe(
      "controller Versionless ignored: it has no API version (@ApiVersion('<group>/<version>') or a static apiVersion)",
    );
  });
});

describe('routes with an accept media type', () => {
  const REPORTS = '/apis/annotated.example.com/v1alpha1/reports';
  it("answers with the route whose media type the request's Accept asks for, the untyped route otherwise", async () => {
    const csv = await admin('GET', REPORTS, undefined, { Accept: 'text/csv' });
    expect(csv.headers.get('content-type')).toBe('text/csv');
    expect(csv.text).toBe('format\ncsv\n');
    expect((await admin('GET', REPORTS, undefined, { Accept: 'application/json' })).body).toEqual({ format: 'json' });
    expect((await admin('GET', REPORTS)).body).toEqual({ format: 'json' });
  });

  it("matches a request's path against each route pattern once, not again when it serves it", async () => {
    countedMatchRoute.mockClear();
    expect((await admin('GET', REPORTS, undefined, { Accept: 'text/csv' })).text).toBe('format\ncsv\n');
    const tried = countedMatchRoute.mock.calls.map(([pattern]) => pattern);
    expect(tried.length).toBeGreaterThan(1);
    expect(new Set(tried).size).toBe(tried.length);
  });

  it('answers 406 NotAcceptable when the only route answers a type the request does not accept', async () => {
    const CHARTS = '/apis/annotated.example.com/v1alpha1/charts';
    expect((await admin('GET', CHARTS, undefined, { Accept: 'image/*' })).text).toBe('<svg/>');
    const refused = await admin('GET', CHARTS, undefined, { Accept: 'application/json' });
    expect(refused.status).toBe(406);
    expect(refused.body).toMatchObject({ kind: 'Status', reason: 'NotAcceptable', code: 406 });
    expect(refused.body.message).toContain('image/svg+xml');
  });
});

describe('two plugins claiming the same model or route', () => {
  it('fails the second, naming the first, and the first keeps serving', async () => {
    expect((await plugin('first')).status.phase).toBe('STARTED');
    writePlugin(pluginsDir, 'second-model', {
      code: `module.exports = { async start(ctx) { await ctx.schemes.register(${model('shared.example.com')}); } };`,
    });
    writePlugin(pluginsDir, 'second-route', {
      code: `module.exports = { start(ctx) { ctx.routes.get('/apis/routes.example.com/v1/pings', () => ({ from: 'second' })); } };`,
    });
    const failed = (name: string) =>
      waitFor(async () => ((await plugin(name))?.status?.phase === 'FAILED' ? plugin(name) : undefined), {
        what: `${name} to be FAILED`,
      });
    const secondModel = (await failed('second-model')).status;
    expect(secondModel.phase).toBe('FAILED');
    expect(secondModel.message).toContain('model things.shared.example.com: already served by plugin "first"');
    const secondRoute = (await failed('second-route')).status;
    expect(secondRoute.phase).toBe('FAILED');
    expect(secondRoute.message).toContain('/apis/routes.example.com/v1/pings is served by plugin "first"');
    expect((await admin('GET', '/apis/routes.example.com/v1/pings')).body).toEqual({ from: 'first' });
    expect((await admin('GET', '/apis/shared.example.com/v1/things')).status).toBe(200);
  });
});

describe('the body of a plugin route', () => {
  it('is 415 in a type the route does not declare (a cross-site form), before the plugin runs', async () => {
    const floods = '/apis/chatty.example.com/v1/floods';
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await admin('POST', floods, 'a=1', { 'Content-Type': type });
      expect([type, res.status, res.body?.reason]).toEqual([type, 415, 'UnsupportedMediaType']);
    }
    expect((await admin('POST', floods, 'a: 1', { 'Content-Type': 'application/yaml' })).status).toBe(200);
    expect((await admin('POST', floods)).status).toBe(200);
  });
});

describe('a plugin flooding the log', () => {
  it('has at most 100 lines a second written, and the dropped ones counted', async () => {
    expect((await admin('POST', '/apis/chatty.example.com/v1/floods', {})).body).toEqual({ sent: 1000 });
    const floods = () => captured.lines.filter((l) => l.plugin === 'chatty' && /^flood /.test(l.msg ?? ''));
    await waitFor(() => floods().length >= 100, { what: '100 flood lines' });
    // The next line after the second has passed reports the count of those dropped.
    await waitFor(
      async () => {
        await admin('POST', '/apis/chatty.example.com/v1/floods', {});
        return captured.lines.some((l) => l.plugin === 'chatty' && l.dropped >= 900);
      },
      { what: 'the dropped lines to be reported' },
    );
    expect(floods().length).toBeLessThan(1000);
  });
});
