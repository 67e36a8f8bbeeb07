import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApiServer } from '../support/apiserver';
import { startTestControllerManager, stopTestControllerManagers } from '../support/controller-manager';
import {
  ACCESS_REVIEWS,
  basic,
  bind,
  createRole,
  createUser,
  expectStatus,
  MY_PERMISSIONS,
  rbacApi,
  type RbacApi,
} from '../support/security';
import { waitFor } from '../support/wait-for';

// The content module (docs/content.md) walked as users holding each built-in role: contributors write and submit their
// own drafts, authors also publish, unpublish and delete their own posts, post administrators manage every post
// through the console API, and everybody (anonymous too) reads published posts only.
const UC = '/apis/uc.api.content.svc.run/v1alpha1/posts';
const CONSOLE = '/apis/content.svc.run/v1alpha1/posts';
const PUBLIC = '/apis/api.content.svc.run/v1alpha1/posts';
const token = 'controller-manager-token-for-the-content-test';
const dir = mkdtempSync(join(tmpdir(), 'svc-content-'));

const api = {} as RbacApi;
let contributor: RbacApi['admin'];
let author: RbacApi['admin'];
let otherAuthor: RbacApi['admin'];
let editor: RbacApi['admin'];
let guest: RbacApi['admin'];

beforeAll(async () => {
  const tokenFile = join(dir, 'token');
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  const server = await startTestApiServer({
    authorizationMode: 'RBAC',
    controllerManagerTokenFile: tokenFile,
    builtinPlugins: true,
  });
  Object.assign(api, rbacApi(server));
  await startTestControllerManager(server.url, { token });
  const withRole = async (user: string, role: string) => {
    const as = await createUser(api, user);
    await bind(api, user, role);
    return as;
  };
  contributor = await withRole('cora', 'post-contributor');
  author = await withRole('ada', 'post-author');
  otherAuthor = await withRole('alan', 'post-author');
  editor = await withRole('eddie', 'post-editor');
  guest = await withRole('gus', 'guest');
  // The module is STARTED and its public role template aggregated into anonymous once anonymous may list.
  await waitFor(async () => (await api.anonymous('GET', PUBLIC)).status === 200, {
    timeoutMs: 30_000,
    what: 'the public posts API to be open to anonymous',
  });
}, 60_000);
afterAll(async () => {
  await stopTestControllerManagers();
  await api.server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const post = (name: string, slug: string, extra: Record<string, unknown> = {}) => ({
  metadata: { name },
  spec: { title: `The ${name}`, slug, content: `All about ${name}.`, ...extra },
});

describe('the content module', () => {
  it('is a STARTED built-in plugin named content', async () => {
    const plugin = await api.admin('GET', '/apis/plugin.svc.run/v1alpha1/plugins/content');
    expect(plugin.body.status.phase).toBe('STARTED');
  });

  it('lists every built-in role in the permissions of its holders', async () => {
    for (const [as, role] of [
      [contributor, 'post-contributor'],
      [author, 'post-author'],
      [editor, 'post-editor'],
      [guest, 'guest'],
    ] as const) {
      expect((await as('GET', MY_PERMISSIONS)).body.roles).toContain(role);
    }
  });
});

describe('a contributor', () => {
  it('creates a draft owned by them (whatever owner the body names), updates it and submits it, but cannot publish or delete it', async () => {
    const created = await contributor('POST', UC, post('first-steps', 'first-steps', { owner: 'ada', publish: true }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      apiVersion: 'content.svc.run/v1alpha1',
      kind: 'Post',
      spec: { owner: 'cora', publish: false, slug: 'first-steps' },
      status: { phase: 'DRAFT' },
    });
    // One write (docs/api.md: version 1 after create), answered as a create is (201 with Location).
    expect(created.body.metadata.version).toBe(1);
    expect(created.headers.get('location')).toBe(`${UC}/first-steps`);
    expect((await contributor('GET', `${UC}/first-steps`)).body.status).toEqual({ phase: 'DRAFT' });
    const edited = await contributor('PUT', `${UC}/first-steps`, {
      metadata: { version: created.body.metadata.version },
      spec: { title: 'First steps, revised', slug: 'first-steps', content: 'More.' },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.spec).toMatchObject({ title: 'First steps, revised', owner: 'cora' });
    expect((await contributor('PUT', `${UC}/first-steps/publish`)).status).toBe(403);
    expect((await contributor('DELETE', `${UC}/first-steps`)).status).toBe(403);
    const submitted = await contributor('PUT', `${UC}/first-steps/submit`);
    expect(submitted.status).toBe(200);
    expect(submitted.body.status.phase).toBe('PENDING_REVIEW');
    const mine = await contributor('GET', UC);
    expect(mine.body.items.map((p: any) => p.metadata.name)).toEqual(['first-steps']);
  });

  it('reads only their own posts through the console API, and cannot change or publish them there', async () => {
    const listed = await contributor('GET', CONSOLE);
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((p: { spec: { owner: string } }) => p.spec.owner)).toEqual(
      listed.body.items.map(() => 'cora'),
    );
    expect(listed.body.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toContain('first-steps');
    expect((await contributor('GET', `${CONSOLE}/first-steps`)).status).toBe(200);
    expect((await contributor('PATCH', `${CONSOLE}/first-steps`, { spec: { publish: true } }, merge)).status).toBe(403);
    expect(
      (await contributor('POST', CONSOLE, post('sneaky', 'sneaky', { owner: 'cora', publish: true }))).status,
    ).toBe(403);
  });

  it('edits their unpublished posts through the console API as in the user centre, and never publishes one there', async () => {
    const current = (await contributor('GET', `${CONSOLE}/first-steps`)).body;
    const retitled = { ...current, spec: { ...current.spec, title: 'First steps, third try' } };
    const edited = await contributor('PUT', `${CONSOLE}/first-steps`, retitled);
    expect(edited.status).toBe(200);
    const publishing = { ...edited.body, spec: { ...edited.body.spec, publish: true } };
    expect((await contributor('PUT', `${CONSOLE}/first-steps`, publishing)).status).toBe(403);
    const status = `${CONSOLE}/first-steps/status`;
    expect((await contributor('PATCH', status, { status: { phase: 'PUBLISHED' } }, merge)).status).toBe(403);
    expect((await contributor('PATCH', status, { status: { phase: 'DRAFT' } }, merge)).body.status.phase).toBe('DRAFT');
    expect((await contributor('POST', CONSOLE, post('for-ada', 'for-ada', { owner: 'ada' }))).status).toBe(403);
    expect((await contributor('GET', `${UC}/first-steps`)).body.spec).toMatchObject({ publish: false });
  });

  it('needs the console API rules the user centre acts through: the routes alone do nothing', async () => {
    await createRole(api, 'uc-routes-only', [
      { apiGroups: ['uc.api.content.svc.run'], resources: ['posts'], verbs: ['create', 'get', 'list', 'update'] },
    ]);
    const uma = await createUser(api, 'uma');
    await bind(api, 'uma', 'uc-routes-only');
    const created = await waitFor(
      async () => {
        const res = await uma('POST', UC, post('umas-post', 'umas-post'));
        return res.status === 403 && res.body.message.includes('cannot create resource "posts"') ? res : undefined;
      },
      { what: "uma's role to count, and the user centre to refuse her as herself" },
    );
    expect(created.body.message).toContain('User "uma"');
    expect((await uma('GET', UC)).status).toBe(403);
    expect((await api.admin('GET', `${CONSOLE}/umas-post`)).status).toBe(404);
  });
});

describe('an author', () => {
  it('publishes, unpublishes and deletes their own posts', async () => {
    expectStatus(await author('POST', UC, post('hello-world', 'hello-world')), 201, 'creating hello-world');
    const published = await author('PUT', `${UC}/hello-world/publish`);
    expect(published.status).toBe(200);
    expect(published.body.spec.publish).toBe(true);
    expect(published.body.status.phase).toBe('PUBLISHED');
    expect(Date.parse(published.body.status.publishTime)).not.toBeNaN();
    expect((await author('PUT', `${UC}/hello-world/submit`)).status).toBe(409);

    expectStatus(await author('POST', UC, post('going-away', 'going-away')), 201, 'creating going-away');
    expectStatus(await author('PUT', `${UC}/going-away/publish`), 200, 'publishing going-away');
    const unpublished = await author('PUT', `${UC}/going-away/unpublish`);
    expect(unpublished.body).toMatchObject({ spec: { publish: false }, status: { phase: 'DRAFT' } });
    expect(unpublished.body.status.publishTime).toBeUndefined();
    const deleted = await author('DELETE', `${UC}/going-away`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.metadata.deletionTimestamp).toBeDefined();
  });

  it("cannot edit a published post without unpublishing it (409), and needs the post's current version", async () => {
    const current = (await author('GET', `${UC}/hello-world`)).body;
    const edit = { metadata: { version: current.metadata.version }, spec: { title: 'x', slug: 'hello-world' } };
    expect((await author('PUT', `${UC}/hello-world`, edit)).status).toBe(409);
    expectStatus(await author('POST', UC, post('drafty', 'drafty')), 201, 'creating drafty');
    const stale = await author('PUT', `${UC}/drafty`, {
      metadata: { version: 99 },
      spec: { title: 'x', slug: 'drafty' },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.reason).toBe('Conflict');
    const unversioned = await author('PUT', `${UC}/drafty`, { spec: { title: 'x', slug: 'drafty' } });
    expect(unversioned.status).toBe(422);
    expect(unversioned.body).toMatchObject({ reason: 'Invalid', details: { name: 'drafty', kind: 'Post' } });
    expect(unversioned.body.details.causes).toEqual([
      expect.objectContaining({ field: 'metadata.version', reason: 'FieldValueRequired' }),
    ]);
    expect((await author('GET', `${UC}/drafty`)).body.spec.title).toBe('The drafty');
  });

  it("sees another author's post as missing (404) in the user centre and through the console", async () => {
    for (const [method, path] of [
      ['GET', `${UC}/hello-world`],
      ['PUT', `${UC}/hello-world`],
      ['DELETE', `${UC}/hello-world`],
      ['PUT', `${UC}/hello-world/unpublish`],
      ['PUT', `${UC}/hello-world/publish`],
    ]) {
      const res = await otherAuthor(method, path, method === 'PUT' ? { spec: { title: 't', slug: 's' } } : undefined);
      expect([method, path, res.status, res.body.reason]).toEqual([method, path, 404, 'NotFound']);
    }
    expect((await otherAuthor('GET', UC)).body.items).toEqual([]);
    // The console API shows each author their own posts only ("own posts" is a conditional rule): 404, not 403.
    expect((await otherAuthor('GET', `${CONSOLE}/hello-world`)).status).toBe(404);
    expect((await otherAuthor('DELETE', `${CONSOLE}/hello-world`)).status).toBe(404);
    expect((await otherAuthor('PATCH', `${CONSOLE}/hello-world`, { spec: { title: 'mine' } }, merge)).status).toBe(404);
    expect((await otherAuthor('GET', CONSOLE)).body.items).toEqual([]);
    expect((await author('GET', `${UC}/hello-world`)).body.status.phase).toBe('PUBLISHED');
  });
});

const merge = { 'Content-Type': 'application/merge-patch+json' };

describe('bad input', () => {
  it('answers a taken slug with 409 naming the index', async () => {
    const taken = await author('POST', UC, post('copycat', 'hello-world'));
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ kind: 'Status', reason: 'Conflict' });
    expect(JSON.stringify(taken.body)).toContain('spec.slug');
  });

  it('answers a body that is not JSON or not a post with 400, and an invalid post with 422 and its causes', async () => {
    const notJson = await author('POST', UC, '{nope', { 'Content-Type': 'application/json' });
    expect(notJson.status).toBe(400);
    expect(notJson.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    expect((await author('POST', UC, { spec: 'hello' })).status).toBe(400);
    const invalid = await author('POST', UC, { metadata: { name: 'bad' }, spec: { title: '', slug: 'Not A Slug' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.reason).toBe('Invalid');
    const fields = invalid.body.details.causes.map((c: any) => c.field);
    expect(fields).toEqual(expect.arrayContaining(['spec.title', 'spec.slug']));
  });

  it('answers a user centre write in a type a cross-site form can send with 415, and writes nothing', async () => {
    const body = JSON.stringify(post('forged', 'forged'));
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await author('POST', UC, body, { 'Content-Type': type });
      expect([type, res.status, res.body?.reason]).toEqual([type, 415, 'UnsupportedMediaType']);
    }
    const typeless = await fetch(`${api.server.url}${UC}`, {
      method: 'POST',
      body: new TextEncoder().encode(body),
      headers: { ...basic('ada', 'ada-password'), Origin: 'https://x.example' },
    });
    expect(typeless.status).toBe(415);
    expect((await author('GET', `${UC}/forged`)).status).toBe(404);
  });
});

describe('a post administrator', () => {
  it('lists, updates and publishes every post through the console API, and deletes any', async () => {
    const all = await editor('GET', CONSOLE);
    expect(all.status).toBe(200);
    expect(all.body.items.map((p: any) => p.spec.owner)).toEqual(expect.arrayContaining(['cora', 'ada']));
    const retitled = await editor(
      'PATCH',
      `${CONSOLE}/first-steps`,
      { spec: { title: 'Edited by the editor' } },
      merge,
    );
    expect(retitled.status).toBe(200);
    expect(retitled.body.spec).toMatchObject({ title: 'Edited by the editor', owner: 'cora' });
    expectStatus(
      await editor('PATCH', `${CONSOLE}/first-steps`, { spec: { publish: true } }, merge),
      200,
      'publishing first-steps',
    );
    await waitFor(async () => (await api.anonymous('GET', `${PUBLIC}/first-steps`)).status === 200, {
      what: 'first-steps to be published',
    });
    expect((await editor('GET', `${CONSOLE}/first-steps`)).body.status.phase).toBe('PUBLISHED');
    const deleted = await editor('DELETE', `${CONSOLE}/drafty`);
    expect(deleted.status).toBe(200);
    expect((await editor('POST', CONSOLE, { ...post('direct', 'direct'), spec: { owner: 'eddie' } })).status).toBe(403);
  });
});

describe('the public API', () => {
  it('shows anonymous visitors and guests published posts only, and a draft as missing', async () => {
    expectStatus(await author('POST', UC, post('secret-draft', 'secret-draft')), 201, 'creating secret-draft');
    for (const as of [api.anonymous, guest]) {
      const list = await as('GET', PUBLIC);
      expect(list.status).toBe(200);
      const names = list.body.items.map((p: any) => p.metadata.name);
      expect(names).toEqual(expect.arrayContaining(['hello-world', 'first-steps']));
      expect(names).not.toContain('secret-draft');
      expect(list.body.items.every((p: any) => p.status.phase === 'PUBLISHED')).toBe(true);
      expect((await as('GET', `${PUBLIC}/hello-world`)).body.spec.title).toBe('The hello-world');
      const draft = await as('GET', `${PUBLIC}/secret-draft`);
      expect([draft.status, draft.body.reason]).toEqual([404, 'NotFound']);
    }
    const review = await api.admin('POST', ACCESS_REVIEWS, {
      spec: { user: 'anonymous', verb: 'list', group: 'api.content.svc.run', resource: 'posts' },
    });
    expect(review.body.status.allowed).toBe(true);
    expect(JSON.stringify(review.body.status.trace)).toContain('content-public-reader');
    expect((await api.anonymous('GET', CONSOLE)).status).toBe(401);
    expect((await api.anonymous('GET', UC)).status).toBe(401);
    expect((await guest('GET', UC)).status).toBe(403);
  });
});
