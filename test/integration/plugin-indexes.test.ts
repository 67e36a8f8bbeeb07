import { expectStatus, useRbacApi } from '../support/security';
import { waitFor } from '../support/wait-for';
import { usePluginsDir, writePlugin } from '../support/plugin-folder';

// Index functions (docs/plugins.md, ADR 0014): a plugin's indexFunc runs in a sandbox inside the apiserver; single- and
// multi-valued, unique or not, ASC or DESC; one that throws or loops refuses the write with a Status and nothing
// else is harmed; the plugin is STARTING, its model answering 503, while its indexes are built over stored objects.
const PLUGINS = '/apis/plugin.svc.run/v1alpha1/plugins';
const BOOKS = '/apis/library.example.com/v1alpha1/books';

const pluginsDir = usePluginsDir('svc-plugin-ix');

const model = `{
  group: 'library.example.com', version: 'v1alpha1',
  names: { kind: 'Book', singular: 'book', plural: 'books' },
  schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
}`;
writePlugin(pluginsDir, 'library', {
  code: `module.exports = { async start(ctx) {
  await ctx.schemes.register(${model}, (ix) => {
    ix.add({ name: 'spec.author', indexFunc: (book) => book.spec.author });
    ix.add({ name: 'spec.isbn', unique: true, indexFunc(book) { return book.spec.isbn && book.spec.isbn.replace(/-/g, ''); } });
    ix.add({ name: 'spec.tags', order: 'DESC', indexFunc: (book) => (book.spec.tags || []).map((t) => t.toLowerCase()) });
    ix.add({ name: 'spec.checked', indexFunc: (book) => {
      if (book.spec.title === 'bad') throw new Error('a title cannot be "bad"');
      if (book.spec.title === 'loop') for (;;);
      return book.spec.title === 'number' ? 42 : undefined;
    } });
  });
} };`,
});
// Functions that only read a path are answered in the apiserver (ADR 0065); they must index exactly as in the isolate.
writePlugin(pluginsDir, 'shelf', {
  code: `module.exports = { async start(ctx) {
  await ctx.schemes.register({ ...${model}, group: 'shelf.example.com' }, (ix) => ix
    .add({ name: 'spec.owner', indexFunc: (book) => book.spec.owner?.toLowerCase() })
    .add({ name: 'spec.isbn', unique: true, indexFunc(book) { return book.spec['isbn']; } })
    .add({ name: 'spec.tags', indexFunc: (book) => book.spec.tags }));
} };`,
});
writePlugin(pluginsDir, 'twice', {
  code: `module.exports = { async start(ctx) {
  await ctx.schemes.register({ group: 'twice.example.com', version: 'v1', names: { kind: 'T', plural: 'ts' } }, (ix) =>
    ix.add({ name: 'spec.a', indexFunc: (o) => o.spec.a }).add({ name: 'spec.a', path: 'spec.a' }));
} };`,
});
writePlugin(pluginsDir, 'asyncix', {
  code: `module.exports = { async start(ctx) {
  await ctx.schemes.register({ group: 'async.example.com', version: 'v1', names: { kind: 'A', plural: 'as' } }, (ix) =>
    ix.add({ name: 'spec.a', indexFunc: async (o) => o.spec.a }));
} };`,
});

const suite = useRbacApi({ pluginsDir, pluginRescanSeconds: 1 });
const plugin = (name: string, phases: string[]) =>
  waitFor(
    async () => {
      const res = await suite.admin('GET', `${PLUGINS}/${name}`);
      return phases.includes(res.body?.status?.phase) ? res.body : undefined;
    },
    { timeoutMs: 30_000, what: `plugin ${name} to be ${phases.join(' or ')}` },
  );
const book = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'library.example.com/v1alpha1',
  kind: 'Book',
  metadata: { name },
  spec,
});
const names = (res: { body: { items: { metadata: { name: string } }[] } }) =>
  res.body.items.map((i) => i.metadata.name);

describe('index functions of a plugin model', () => {
  it('index single and multi-valued values for field selectors and sorts, ASC or DESC', async () => {
    await plugin('library', ['STARTED']);
    const create = async (name: string, spec: Record<string, unknown>) =>
      expectStatus(await suite.admin('POST', BOOKS, book(name, spec)), 201, `creating ${name}`);
    await create('dune', { author: 'herbert', isbn: '978-0441', tags: ['SF', 'Classic'] });
    await create('emma', { author: 'austen', isbn: '978-0141', tags: ['Classic'] });
    await create('persuasion', { author: 'austen', tags: ['Romance'] });
    expect(names(await suite.admin('GET', `${BOOKS}?fieldSelector=spec.author=austen&sort=metadata.name,asc`))).toEqual(
      ['emma', 'persuasion'],
    );
    expect(names(await suite.admin('GET', `${BOOKS}?fieldSelector=spec.tags=classic&sort=metadata.name,asc`))).toEqual([
      'dune',
      'emma',
    ]);
    expect(names(await suite.admin('GET', `${BOOKS}?fieldSelector=spec.isbn=9780441`))).toEqual(['dune']);
    // The index's own order (DESC) when the sort names none: dune ("sf"), persuasion ("romance"), emma ("classic").
    expect(names(await suite.admin('GET', `${BOOKS}?sort=spec.tags`))).toEqual(['dune', 'persuasion', 'emma']);
  });

  it('indexes with functions that read a path as the isolate would: values, uniqueness and refusals', async () => {
    await plugin('shelf', ['STARTED']);
    const shelf = '/apis/shelf.example.com/v1alpha1/books';
    const put = (name: string, spec: Record<string, unknown>) =>
      suite.admin('POST', shelf, { ...book(name, spec), apiVersion: 'shelf.example.com/v1alpha1' });
    expectStatus(await put('a', { owner: 'Ada', isbn: '1', tags: ['x', 'y'] }), 201, 'creating a');
    expectStatus(await put('b', { owner: 'ADA', isbn: '2', tags: ['y'] }), 201, 'creating b');
    expectStatus(await put('c', { isbn: '3' }), 201, 'creating c without an owner');
    const listed = (query: string) => suite.admin('GET', `${shelf}?${query}&sort=metadata.name,asc`).then(names);
    expect(await listed('fieldSelector=spec.owner=ada')).toEqual(['a', 'b']);
    expect(await listed('fieldSelector=spec.tags=y')).toEqual(['a', 'b']);
    const taken = await put('d', { isbn: '1' });
    expect(taken.status).toBe(409);
    expect(taken.body.details.causes[0]).toMatchObject({ field: 'spec.isbn', reason: 'FieldValueDuplicate' });
    const numbered = await put('e', { isbn: 5 });
    expect(numbered.status).toBe(422);
    expect(numbered.body.message).toContain('returned number');
    // A fold of a number is the isolate's to answer, with JavaScript's own words.
    const folded = await put('f', { owner: 7, isbn: '6' });
    expect(folded.status).toBe(422);
    expect(folded.body.message).toContain('toLowerCase is not a function');
  });

  it('enforces a unique function index with a 409 naming the index and value', async () => {
    await plugin('library', ['STARTED']);
    const taken = await suite.admin('POST', BOOKS, book('dune2', { author: 'x', isbn: '9780-441' }));
    expect(taken.status).toBe(409);
    expect(taken.body.details.causes[0]).toMatchObject({ field: 'spec.isbn', reason: 'FieldValueDuplicate' });
  });

  it('refuses a write whose index function throws (422) or returns something else, naming the index', async () => {
    await plugin('library', ['STARTED']);
    const bad = await suite.admin('POST', BOOKS, book('bad', { title: 'bad' }));
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ kind: 'Status', reason: 'Invalid' });
    expect(bad.body.details.causes[0]).toMatchObject({ field: 'index spec.checked' });
    expect(bad.body.message).toContain('the index function of plugin "library" failed: a title cannot be "bad"');
    const number = await suite.admin('POST', BOOKS, book('number', { title: 'number' }));
    expect(number.status).toBe(422);
    expect(number.body.message).toContain('returned number');
    expect((await suite.admin('GET', `${BOOKS}/bad`)).status).toBe(404);
  });

  it('stops an index function that loops: the write is a 500 Status, the apiserver keeps serving', async () => {
    await plugin('library', ['STARTED']);
    const loop = await suite.admin('POST', BOOKS, book('loop', { title: 'loop' }));
    expect(loop.status).toBe(500);
    expect(loop.body.message).toContain('the index functions of plugin "library" did not finish within');
    expect((await suite.admin('GET', `${BOOKS}/dune`)).status).toBe(200);
  });

  it('fails a plugin that gives an index name twice, or an asynchronous index function', async () => {
    expect((await plugin('twice', ['FAILED'])).status.message).toContain('index "spec.a" is declared twice');
    expect((await plugin('asyncix', ['FAILED'])).status.message).toContain(
      'index spec.a: an index function must be synchronous',
    );
  });

  it('is STARTING, its model answering 503 with Retry-After, while a new index is built over stored objects', async () => {
    await plugin('library', ['STARTED']);
    const all = Array.from({ length: 300 }, (_, i) => i);
    for (let i = 0; i < all.length; i += 50) {
      await Promise.all(
        all
          .slice(i, i + 50)
          .map(async (n) =>
            expectStatus(await suite.admin('POST', BOOKS, book(`b${n}`, { author: 'many' })), 201, `book b${n}`),
          ),
      );
    }
    // Version 2 adds an index whose function takes a few milliseconds per object: the build takes about a second.
    writePlugin(pluginsDir, 'library', {
      version: '2.0.0',
      code: `module.exports = { async start(ctx) {
  await ctx.schemes.register(${model}, (ix) => ix.add({ name: 'spec.slow', indexFunc: (book) => {
    const until = Date.now() + 4; while (Date.now() < until);
    return book.spec.author;
  } }));
} };`,
    });
    const starting = await plugin('library', ['STARTING']);
    expect(starting.spec.version).toBe('2.0.0');
    const unavailable = await waitFor(
      async () => {
        const res = await suite.admin('GET', `${BOOKS}?fieldSelector=spec.slow=many`);
        return res.status === 503 ? res : undefined;
      },
      { timeoutMs: 20_000, what: 'the books API to answer 503' },
    );
    expect(unavailable.body).toMatchObject({ kind: 'Status', reason: 'ServiceUnavailable', code: 503 });
    expect(unavailable.headers.get('retry-after')).toBeTruthy();
    await plugin('library', ['STARTED']);
    const listed = await suite.admin('GET', `${BOOKS}?fieldSelector=spec.slow=many&size=1`);
    expect(listed.status).toBe(200);
    expect(listed.body.total).toBe(300);
  });
});
