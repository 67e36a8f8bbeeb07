import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { bind, createRole, createUser, expectStatus, useRbacApi } from '../support/security';
import { waitFor } from '../support/wait-for';
import { usePluginsDir, writePlugin } from '../support/plugin-folder';

// What a plugin may not reach (ADR 0030): its index functions find nothing of the apiserver's, whoever writes the
// object; a Model object and a plugin never take each other's model; a plugin holding Buffers past its memory limit is
// stopped (FAILED, naming the limit) while the apiserver keeps serving, and so is one whose thread is blocked
// allocating them.
const PLUGINS = '/apis/plugin.svc.run/v1alpha1/plugins';
const MODELS = '/apis/apiextensions.svc.run/v1alpha1/models';
const BOOKS = '/apis/library.example.com/v1alpha1/books';

const pluginsDir = usePluginsDir('svc-plugin-iso');
const marker = join(pluginsDir, '..', `${pluginsDir.split('/').pop()}-escaped`);
afterAll(() => rmSync(marker, { force: true }));

const modelSpec = (group: string, kind: string, plural: string) => ({
  group,
  version: 'v1alpha1',
  names: { kind, plural },
  schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
});

// An index function that, given `spec.escape`, tries the way out of a node:vm context and, if it finds the
// apiserver's process, leaves a file behind (it could as well have ended the process).
writePlugin(pluginsDir, 'library', {
  code: `module.exports = { async start(ctx) {
  await ctx.schemes.register(${JSON.stringify(modelSpec('library.example.com', 'Book', 'books'))}, (ix) =>
    ix.add({ name: 'spec.escape', indexFunc: function (book) {
      if (!book.spec.escape) return undefined;
      const host = this.constructor.constructor('return process')();
      host.getBuiltinModule('fs').writeFileSync(${JSON.stringify(marker)}, String(host.pid));
      return 'escaped';
    } }));
} };`,
});
// Holds ever more Buffers (outside the worker's heap), up to 800 MiB, until it is stopped.
writePlugin(pluginsDir, 'hoarder', {
  code: `module.exports = { start() {
  const held = [];
  setInterval(() => held.length < 100 && held.push(Buffer.alloc(8 * 1024 * 1024, 1)), 20);
} };`,
});
// Blocks its own thread in a synchronous loop that allocates Buffers (about 200 MiB a second, at most 512 MiB), so
// that its worker never reports its memory: only a check from outside the worker can stop it.
writePlugin(pluginsDir, 'spinner', {
  code: `module.exports = { start() {
  setTimeout(() => {
    const held = [];
    while (held.length < 512) {
      held.push(Buffer.alloc(1024 * 1024, 1));
      const until = Date.now() + 5;
      while (Date.now() < until);
    }
    for (;;);
  }, 100);
} };`,
});

const suite = useRbacApi({ pluginsDir, pluginRescanSeconds: 1, pluginMemoryMb: 128 });
const plugin = (name: string, phases: string[]) =>
  waitFor(
    async () => {
      const res = await suite.admin('GET', `${PLUGINS}/${name}`);
      return phases.includes(res.body?.status?.phase) ? res.body : undefined;
    },
    { timeoutMs: 30_000, what: `plugin ${name} to be ${phases.join(' or ')}` },
  );

describe('plugin isolation', () => {
  it("gives an index function nothing of the apiserver's: the write of a user is refused, nothing escapes", async () => {
    await plugin('library', ['STARTED']);
    await createRole(suite, 'book-writer', [
      { apiGroups: ['library.example.com'], resources: ['books'], verbs: ['create', 'get'] },
    ]);
    const writer = await createUser(suite, 'bea');
    await bind(suite, 'bea', 'book-writer');
    const book = { apiVersion: 'library.example.com/v1alpha1', kind: 'Book', metadata: { name: 'x' } };
    const res = await writer('POST', BOOKS, { ...book, spec: { escape: true } });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('the index function of plugin "library" failed');
    expect(existsSync(marker)).toBe(false);
    expectStatus(await writer('POST', BOOKS, { ...book, spec: {} }), 201, 'an ordinary book');
  });

  it('refuses a Model object for a model a plugin serves (409 naming the plugin); the plugin keeps it', async () => {
    await plugin('library', ['STARTED']);
    await createRole(suite, 'modeller', [
      { apiGroups: ['apiextensions.svc.run'], resources: ['models'], verbs: ['create', 'get'] },
    ]);
    const modeller = await createUser(suite, 'mo');
    await bind(suite, 'mo', 'modeller');
    const res = await modeller('POST', MODELS, {
      metadata: { name: 'books.library.example.com' },
      spec: modelSpec('library.example.com', 'Book', 'books'),
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('served by plugin "library"');
    expect((await suite.admin('GET', `${MODELS}/books.library.example.com`)).status).toBe(404);
    expect((await suite.admin('GET', `${BOOKS}?fieldSelector=spec.escape=escaped`)).status).toBe(200);
  });

  it('fails a plugin registering a model a stored Model serves, naming the Model', async () => {
    const name = 'gadgets.gadgets.example.com';
    expectStatus(
      await suite.admin('POST', MODELS, {
        metadata: { name },
        spec: modelSpec('gadgets.example.com', 'Gadget', 'gadgets'),
      }),
      201,
      'the Model',
    );
    writePlugin(pluginsDir, 'gadgets', {
      code: `module.exports = { async start(ctx) {
  await ctx.schemes.register(${JSON.stringify(modelSpec('gadgets.example.com', 'Gadget', 'gadgets'))});
} };`,
    });
    const failed = await plugin('gadgets', ['FAILED']);
    expect(failed.status.message).toContain(`already served by Model "${name}"`);
    expect((await suite.admin('GET', `${MODELS}/${name}`)).status).toBe(200);
  });

  it('stops a plugin whose Buffers pass its memory limit: FAILED naming the limit, the apiserver serving', async () => {
    const failed = await plugin('hoarder', ['FAILED']);
    expect(failed.status.message).toContain('the plugin went past its memory limit of 128 MiB');
    expect((await suite.admin('GET', `${PLUGINS}/library`)).status).toBe(200);
  });

  it('stops a plugin allocating Buffers in a loop that blocks its thread, measured from outside the worker', async () => {
    const failed = await plugin('spinner', ['FAILED']);
    expect(failed.status.message).toMatch(
      /^the plugin went past its memory limit of 128 MiB while its thread was blocked \(it held \d+ MiB, and the process grew by \d+ MiB since\); its worker was stopped$/,
    );
    expect((await suite.admin('GET', `${PLUGINS}/library`)).status).toBe(200);
  });
});
