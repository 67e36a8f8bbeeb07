import { usePersonsApi, person, MODELS, PERSONS } from '../support/person';
import { waitFor } from '../support/wait-for';

const suite = usePersonsApi();
const names = (res: { body: { items: { metadata: { name: string } }[] } }) =>
  res.body.items.map((i) => i.metadata.name);

beforeAll(async () => {
  const people: [string, Record<string, unknown>, Record<string, string>][] = [
    ['amy', { name: 'Amy', tags: ['a', 'b'] }, { team: 'red', tier: 'gold' }],
    ['bob', { name: 'Bob', tags: ['b'] }, { team: 'blue' }],
    ['cid', { name: 'Cid', tags: ['c'] }, { team: 'red' }],
    ['dan', { name: 'Dan' }, {}],
    ['eve', { name: 'Eve', tags: ['a'] }, { team: 'green', tier: 'silver' }],
  ];
  for (const [name, spec, labels] of people) {
    const res = await suite.api('POST', PERSONS, person(name, spec, labels));
    if (res.status !== 201) throw new Error(res.text);
  }
});

describe('list envelope', () => {
  it('without size: page 1, size = total, one page', async () => {
    const res = await suite.api('GET', PERSONS);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      apiVersion: 'example.com/v1alpha1',
      kind: 'PersonList',
      page: 1,
      size: 5,
      total: 5,
      totalPages: 1,
      first: true,
      last: true,
      hasNext: false,
      hasPrevious: false,
    });
    expect(typeof res.body.metadata.resourceVersion).toBe('string');
  });

  it('pages with page and size', async () => {
    const res = await suite.api('GET', `${PERSONS}?page=2&size=2&sort=metadata.name,asc`);
    expect(names(res)).toEqual(['cid', 'dan']);
    expect(res.body).toMatchObject({
      page: 2,
      size: 2,
      total: 5,
      totalPages: 3,
      first: false,
      last: false,
      hasNext: true,
      hasPrevious: true,
    });
    const past = await suite.api('GET', `${PERSONS}?page=9&size=2`);
    expect(past.status).toBe(200);
    expect(past.body.items).toEqual([]);
    expect(past.body.hasNext).toBe(false);
  });

  it('pages with limit and continue', async () => {
    const first = await suite.api('GET', `${PERSONS}?limit=3&sort=metadata.name,asc`);
    expect(names(first)).toEqual(['amy', 'bob', 'cid']);
    const token = first.body.metadata.continue;
    expect(token).toBeTruthy();
    const second = await suite.api(
      'GET',
      `${PERSONS}?limit=3&sort=metadata.name,asc&continue=${encodeURIComponent(token)}`,
    );
    expect(names(second)).toEqual(['dan', 'eve']);
    expect(second.body.metadata.continue).toBeFalsy();
  });

  it('with limit and continue, counts the objects after each page and has a next page exactly when a token comes', async () => {
    const pages: unknown[] = [];
    let token: string | undefined;
    do {
      const query = `limit=2&sort=metadata.name,asc${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
      const { body } = await suite.api('GET', `${PERSONS}?${query}`);
      pages.push({
        names: names({ body }),
        remaining: body.metadata.remainingItemCount,
        token: Boolean(body.metadata.continue),
        hasNext: body.hasNext,
        last: body.last,
        hasPrevious: body.hasPrevious,
        first: body.first,
      });
      token = body.metadata.continue;
    } while (token && pages.length < 10);
    expect(pages).toEqual([
      { names: ['amy', 'bob'], remaining: 3, token: true, hasNext: true, last: false, hasPrevious: false, first: true },
      { names: ['cid', 'dan'], remaining: 1, token: true, hasNext: true, last: false, hasPrevious: true, first: false },
      {
        names: ['eve'],
        remaining: undefined,
        token: false,
        hasNext: false,
        last: true,
        hasPrevious: true,
        first: false,
      },
    ]);
  });

  it('refuses a page other than 1 without size, naming both (400)', async () => {
    const res = await suite.api('GET', `${PERSONS}?page=2`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    expect(res.body.message).toMatch(/page 2 needs a size/);
    expect((await suite.api('GET', `${PERSONS}?page=1`)).status).toBe(200);
  });
});

describe('resourceVersionMatch', () => {
  it('Exact at the current resourceVersion lists; at an older one is 410 Expired', async () => {
    const current = (await suite.api('GET', PERSONS)).body.metadata.resourceVersion as string;
    const exact = await suite.api('GET', `${PERSONS}?resourceVersion=${current}&resourceVersionMatch=Exact`);
    expect(exact.status).toBe(200);
    expect(exact.body.metadata.resourceVersion).toBe(current);
    expect(exact.body.items).toHaveLength(5);
    const older = await suite.api(
      'GET',
      `${PERSONS}?resourceVersion=${Number(current) - 1}&resourceVersionMatch=Exact`,
    );
    expect(older.status).toBe(410);
    expect(older.body).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410 });
    const notOlder = await suite.api('GET', `${PERSONS}?resourceVersion=1&resourceVersionMatch=NotOlderThan`);
    expect(notOlder.status).toBe(200);
  });

  it('Exact with a resourceVersion the server never returned is 400', async () => {
    const res = await suite.api('GET', `${PERSONS}?resourceVersion=abc&resourceVersionMatch=Exact`);
    expect(res.status).toBe(400);
  });
});

describe('sorting', () => {
  it('defaults to creationTimestamp desc, then name', async () => {
    const res = await suite.api('GET', PERSONS);
    const stamps = res.body.items.map((i: any) => Date.parse(i.metadata.creationTimestamp));
    expect([...stamps].sort((a, b) => b - a)).toEqual(stamps);
  });

  it('sorts by an index, ascending or descending', async () => {
    expect(names(await suite.api('GET', `${PERSONS}?sort=spec.name,desc`))).toEqual([
      'eve',
      'dan',
      'cid',
      'bob',
      'amy',
    ]);
    expect(names(await suite.api('GET', `${PERSONS}?sort=spec.name,asc`))).toEqual(['amy', 'bob', 'cid', 'dan', 'eve']);
  });

  it('refuses a sort on a field that is no index, naming it', async () => {
    const res = await suite.api('GET', `${PERSONS}?sort=spec.age,asc`);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('spec.age');
  });
});

describe('selectors', () => {
  const cases: [string, string[]][] = [
    ['labelSelector=team%3Dred', ['amy', 'cid']],
    ['labelSelector=team%3D%3Dred', ['amy', 'cid']],
    ['labelSelector=team!%3Dred', ['bob', 'dan', 'eve']],
    ['labelSelector=team%20in%20(red,blue)', ['amy', 'bob', 'cid']],
    ['labelSelector=team%20notin%20(red,blue)', ['dan', 'eve']],
    ['labelSelector=tier', ['amy', 'eve']],
    ['labelSelector=!tier', ['bob', 'cid', 'dan']],
    ['labelSelector=team%3Dred,tier', ['amy']],
    ['labelSelector=team%3Dred&labelSelector=tier', ['amy']],
    ['fieldSelector=spec.tags%3Da', ['amy', 'eve']],
    ['fieldSelector=spec.tags!%3Da', ['bob', 'cid', 'dan']],
    ['fieldSelector=spec.tags%3D(b,c)', ['amy', 'bob', 'cid']],
    ['fieldSelector=spec.tags%3D(a,b),spec.name%3DBob', ['bob']],
    ['fieldSelector=metadata.name%3Ddan', ['dan']],
  ];
  it.each(cases)('%s', async (query, expected) => {
    const res = await suite.api('GET', `${PERSONS}?${query}&sort=metadata.name,asc`);
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(expected);
    expect(res.body.total).toBe(expected.length);
  });

  it('refuses a field selector on a non-index (400 naming it) and a malformed selector (400 naming the term)', async () => {
    const field = await suite.api('GET', `${PERSONS}?fieldSelector=spec.age%3D3`);
    expect(field.status).toBe(400);
    expect(field.body.message).toContain('spec.age');
    const bad = await suite.api('GET', `${PERSONS}?labelSelector=team%20in%20(red`);
    expect(bad.status).toBe(400);
    expect(bad.body.reason).toBe('BadRequest');
  });

  it.each(['labelSelector=team%20in%20()', 'labelSelector=team%20notin%20()', 'fieldSelector=spec.tags%3D()'])(
    'refuses the empty set in %s with 400, as Kubernetes refuses a requirement without values',
    async (query) => {
      const res = await suite.api('GET', `${PERSONS}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
      expect(res.body.message).toContain("for 'in', 'notin' operators, values set can't be empty");
    },
  );

  it.each(['page=0', 'size=-1', 'size=abc', 'sort=spec.name,sideways', 'limit=x'])(
    'refuses %s with 400',
    async (query) => {
      const res = await suite.api('GET', `${PERSONS}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.kind).toBe('Status');
    },
  );
});

describe('Table output for kubectl get', () => {
  const accept = { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;g=apidiscovery.k8s.io;v=v2' };

  it('lists rows with the model printer columns, Name first and Age last', async () => {
    const res = await suite.api('GET', `${PERSONS}?sort=metadata.name,asc&labelSelector=team%3Dred`, undefined, accept);
    expect(res.body).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(res.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual([
      'Name',
      'Full Name',
      'Years',
      'Age',
    ]);
    expect(res.body.rows.map((r: { cells: unknown[] }) => r.cells.slice(0, 3))).toEqual([
      ['amy', 'Amy', 30],
      ['cid', 'Cid', 30],
    ]);
    expect(res.body.rows[0].cells[3]).toMatch(/^\d+[smhdy]$/);
    expect(res.body.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'amy' } });
  });

  it('answers a single object as a one-row Table', async () => {
    const res = await suite.api('GET', `${PERSONS}/bob`, undefined, accept);
    expect(res.body.rows).toHaveLength(1);
    expect(res.body.rows[0].cells[0]).toBe('bob');
  });
});

it("a Table list keeps the page's continue token, so kubectl reads every chunk", async () => {
  for (let i = 0; i < 5; i++) await suite.api('POST', PERSONS, person(`tbl-${i}`, {}, { chunked: 'yes' }));
  const accept = { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' };
  const names: string[] = [];
  let token: string | undefined;
  do {
    const query = `labelSelector=chunked%3Dyes&limit=2${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
    const page = await suite.api('GET', `${PERSONS}?${query}`, undefined, accept);
    expect(page.body.kind).toBe('Table');
    names.push(...page.body.rows.map((r: { cells: unknown[] }) => r.cells[0] as string));
    token = page.body.metadata.continue;
  } while (token);
  expect(names.sort()).toEqual(['tbl-0', 'tbl-1', 'tbl-2', 'tbl-3', 'tbl-4']);
});

describe('a model index paired with a filter (filteredBy)', () => {
  const RACERS = '/apis/pairs.example.com/v1alpha1/racers';
  const racerModel = (filteredBy: string[]) => ({
    apiVersion: 'apiextensions.svc.run/v1alpha1',
    kind: 'Model',
    metadata: { name: 'racers.pairs.example.com' },
    spec: {
      group: 'pairs.example.com',
      version: 'v1alpha1',
      names: { kind: 'Racer', plural: 'racers' },
      indexes: [
        { name: 'spec.team', path: 'spec.team' },
        { name: 'spec.time', path: 'spec.time', filteredBy },
      ],
    },
  });
  const racer = (name: string, team: string, time: string | undefined, tier: string) => ({
    apiVersion: 'pairs.example.com/v1alpha1',
    kind: 'Racer',
    metadata: { name, labels: { tier } },
    spec: time === undefined ? { team } : { team, time },
  });

  it('refuses filteredBy naming no other non-unique index (422 naming it)', async () => {
    for (const filter of ['spec.nothing', 'metadata.name', 'spec.time']) {
      const res = await suite.api('POST', MODELS, racerModel([filter]));
      expect(res.status).toBe(422);
      expect(res.body.message).toContain(filter);
    }
  });

  it('pages one label or field value sorted by the paired index, with totals and continue tokens', async () => {
    expect((await suite.api('POST', MODELS, racerModel(['metadata.labels', 'spec.team']))).status).toBe(201);
    await waitFor(async () => (await suite.api('GET', RACERS)).status === 200, { what: 'the racers API' });
    const racers: [string, string, string | undefined, string][] = [
      ['r1', 'red', '03', 'gold'],
      ['r2', 'blue', '01', 'gold'],
      ['r3', 'red', '02', 'silver'],
      ['r4', 'red', undefined, 'gold'],
      ['r5', 'blue', '02', 'gold'],
      ['r6', 'red', '01', 'gold'],
    ];
    for (const r of racers) expect((await suite.api('POST', RACERS, racer(...r))).status).toBe(201);
    const gold = await suite.api('GET', `${RACERS}?labelSelector=tier%3Dgold&sort=spec.time,asc&page=1&size=3`);
    expect({ names: names(gold), total: gold.body.total }).toEqual({ names: ['r2', 'r6', 'r5'], total: 5 });
    const desc = await suite.api('GET', `${RACERS}?fieldSelector=spec.team%3Dred&sort=spec.time,desc&limit=2`);
    expect({ names: names(desc), total: desc.body.total }).toEqual({ names: ['r1', 'r3'], total: 4 });
    const token = encodeURIComponent(desc.body.metadata.continue);
    const rest = await suite.api(
      'GET',
      `${RACERS}?fieldSelector=spec.team%3Dred&sort=spec.time,desc&continue=${token}`,
    );
    expect(names(rest)).toEqual(['r6', 'r4']);
  });
});
