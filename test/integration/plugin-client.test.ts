import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApiServer } from '../support/apiserver';
import { bind, createRole, createUser, rbacApi, useRbacApi } from '../support/security';
import { waitFor } from '../support/wait-for';
import { usePluginsDir, writePlugin } from '../support/plugin-folder';

// ctx.client (docs/plugins.md): a plugin's code calls the apiserver as system:plugin:<name>, which may do anything on
// the models the plugin serves and, beyond them, only what roles bound to it allow.
const NOTES = '/apis/notes.example.com/v1alpha1';

const pluginsDir = usePluginsDir('svc-plugin-client');
writePlugin(pluginsDir, 'notes', {
  code: `
const NOTES = { group: 'notes.example.com', version: 'v1alpha1', plural: 'notes' };
const ROLES = { group: '', version: 'v1alpha1', plural: 'roles' };
// A refusal answers as the apiserver's Status, so the test sees what the plugin's identity was told.
const relay = (call) => call.then((value) => value, (err) => new Response(JSON.stringify(err.status), { status: err.status.code }));
module.exports = {
  async start(ctx) {
    await ctx.schemes.register({
      group: 'notes.example.com', version: 'v1alpha1',
      names: { kind: 'Note', singular: 'note', plural: 'notes' },
      schema: { type: 'object', properties: { spec: { type: 'object', properties: { text: { type: 'string' }, by: { type: 'string' } } } } },
    });
    ctx.routes.post('/apis/notes.example.com/v1alpha1/drafts', async (req) => {
      const { text } = await req.json();
      const note = { apiVersion: 'notes.example.com/v1alpha1', kind: 'Note', metadata: { generateName: 'note-' }, spec: { text, by: req.user.name } };
      return relay(ctx.client.create(NOTES, note).then((created) => new Response(JSON.stringify(created), { status: 201 })));
    });
    ctx.routes.get('/apis/notes.example.com/v1alpha1/drafts', () =>
      relay(ctx.client.list(NOTES).then((list) => list.items.map((n) => n.spec))));
    ctx.routes.get('/apis/notes.example.com/v1alpha1/roles', () =>
      relay(ctx.client.list(ROLES).then((list) => list.items.map((r) => r.metadata.name))));
  },
};`,
});

const suite = useRbacApi({ pluginsDir });

beforeAll(() =>
  waitFor(
    async () =>
      (await suite.admin('GET', '/apis/plugin.svc.run/v1alpha1/plugins/notes')).body?.status?.phase === 'STARTED',
    { timeoutMs: 20_000, what: 'plugin notes to start' },
  ),
);

describe("a plugin's ctx.client", () => {
  it('creates and lists objects of its own model, whoever calls its route', async () => {
    const writer = await createUser(suite, 'writer');
    await createRole(suite, 'notes-writer', [
      { apiGroups: ['notes.example.com'], resources: ['drafts'], verbs: ['create', 'list'] },
    ]);
    await bind(suite, 'writer', 'notes-writer');
    const created = await writer('POST', `${NOTES}/drafts`, { text: 'hello' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: 'Note', spec: { text: 'hello', by: 'writer' } });
    expect(created.body.metadata.name).toMatch(/^note-/);
    // The writer holds no rule on the notes model itself: the plugin's identity does the writing.
    expect((await writer('GET', `${NOTES}/notes`)).status).toBe(403);
    expect((await suite.admin('GET', `${NOTES}/notes/${created.body.metadata.name}`)).body.spec.text).toBe('hello');
    expect((await writer('GET', `${NOTES}/drafts`)).body).toEqual([{ text: 'hello', by: 'writer' }]);
  });

  it('is refused (403, naming system:plugin:<name>) what it was not granted, and allowed it once a role is bound', async () => {
    const refused = await suite.admin('GET', `${NOTES}/roles`);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
    expect(refused.body.message).toContain('User "system:plugin:notes" cannot list resource "roles"');
    await createRole(suite, 'role-reader', [{ apiGroups: [''], resources: ['roles'], verbs: ['list'] }]);
    await bind(suite, 'system:plugin:notes', 'role-reader', 'notes-role-reader');
    const allowed = await waitFor(
      async () => {
        const res = await suite.admin('GET', `${NOTES}/roles`);
        return res.status === 200 ? res : undefined;
      },
      { what: 'the bound role to take effect' },
    );
    expect(allowed.body).toEqual(expect.arrayContaining(['role-reader', 'super-role']));
  });
});

describe("a plugin's ctx.client over HTTPS", () => {
  it('reaches the apiserver through its own TLS listener', async () => {
    const tlsDir = mkdtempSync(join(tmpdir(), 'svc-plugin-client-tls-'));
    const server = await startTestApiServer({ authorizationMode: 'RBAC', pluginsDir, tlsSelfSignedDir: tlsDir });
    try {
      expect(server.url).toMatch(/^https:/);
      const tls = rbacApi(server, readFileSync(server.caFile!));
      await waitFor(
        async () =>
          (await tls.admin('GET', '/apis/plugin.svc.run/v1alpha1/plugins/notes')).body?.status?.phase === 'STARTED',
        { timeoutMs: 20_000, what: 'plugin notes to start over HTTPS' },
      );
      const created = await tls.admin('POST', `${NOTES}/drafts`, { text: 'over tls' });
      expect(created.status).toBe(201);
      expect(created.body.spec).toEqual({ text: 'over tls', by: 'admin' });
    } finally {
      await server.stop();
      rmSync(tlsDir, { recursive: true, force: true });
    }
  });
});
