import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PERSONS, person } from '../support/person';
import { httpWatch } from '../support/watch-client';
import { basic, bind, createRole, createUser, expectStatus, useRbacApi } from '../support/security';
import type { ApiClient } from '../support/apiserver';

// A caller holding two differently shaped conditional rules ("persons named after me" and "persons labelled
// team=a") lists, pages, watches and deletes the union of what each lets them see, on every store: the request's
// own selectors narrow that union and never widen it.

const VERBS = ['get', 'list', 'watch', 'deletecollection'];
const OWN = {
  apiGroups: ['example.com'],
  resources: ['persons'],
  verbs: VERBS,
  where: { fieldSelector: 'spec.name=${user.name}' },
};
const TEAM_A = { apiGroups: ['example.com'], resources: ['persons'], verbs: VERBS, where: { labelSelector: 'team=a' } };

/** p1…p9: ada's, team a's (p3 is both), and others' nobody may see through these rules. */
const PEOPLE: [name: string, owner: string, team?: string][] = [
  ['p1', 'ada'],
  ['p2', 'bob', 'a'],
  ['p3', 'ada', 'a'],
  ['p4', 'eve'],
  ['p5', 'bob', 'b'],
  ['p6', 'ada', 'b'],
  ['p7', 'eve', 'a'],
  ['p8', 'bob'],
  ['p9', 'ada'],
];
const VISIBLE = ['p1', 'p2', 'p3', 'p6', 'p7', 'p9'];

const fileRoot = mkdtempSync(join(tmpdir(), 'svc-condition-unions-'));
afterAll(() => rmSync(fileRoot, { recursive: true, force: true }));

const names = (res: { body: { items: { metadata: { name: string } }[] } }) =>
  res.body.items.map((p) => p.metadata.name);

describe.each([
  ['the Redis store', () => ({})],
  ['the memory store', () => ({ store: 'memory://' })],
  ['the file store', () => ({ store: `file://${join(fileRoot, 'store')}` })],
])('two differently shaped conditional rules on %s', (_store, config) => {
  const suite = useRbacApi(config());
  let ada: ApiClient;

  beforeAll(async () => {
    ada = await createUser(suite, 'ada');
    await createRole(suite, 'own-persons', [OWN]);
    await createRole(suite, 'team-a-persons', [TEAM_A]);
    await bind(suite, 'ada', 'own-persons');
    await bind(suite, 'ada', 'team-a-persons');
    for (const [name, owner, team] of PEOPLE) {
      const body = person(name, { name: owner }, team ? { team } : undefined);
      expectStatus(await suite.admin('POST', PERSONS, body), 201, name);
    }
  });

  it('lists the union once each, with an exact total, where it was refused before', async () => {
    const res = await ada('GET', `${PERSONS}?sort=metadata.name,asc`);
    expect(res.status).toBe(200);
    expect({ names: names(res), total: res.body.total }).toEqual({ names: VISIBLE, total: VISIBLE.length });
  });

  it('pages the union with limit and continue, and with page and size, in the order asked', async () => {
    const walked: string[] = [];
    let token = '';
    for (let pages = 0; pages < 10; pages++) {
      const res = await ada('GET', `${PERSONS}?sort=metadata.name,desc&limit=4${token && `&continue=${token}`}`);
      expect(res.status).toBe(200);
      walked.push(...names(res));
      token = res.body.metadata.continue ?? '';
      if (token === '') break;
      expect(res.body.metadata.remainingItemCount).toBe(VISIBLE.length - walked.length);
    }
    expect(walked).toEqual([...VISIBLE].reverse());
    const second = await ada('GET', `${PERSONS}?sort=metadata.name,asc&page=2&size=4`);
    expect({ names: names(second), total: second.body.total }).toEqual({ names: VISIBLE.slice(4), total: 6 });
  });

  it('narrows the union by the request’s selectors and never widens it', async () => {
    const cases: [query: string, expected: string[]][] = [
      ['labelSelector=team!=a', ['p1', 'p6', 'p9']],
      ['labelSelector=team in (a,b)', ['p2', 'p3', 'p6', 'p7']],
      ['labelSelector=team=b', ['p6']],
      ['fieldSelector=spec.name=bob', ['p2']],
      ['fieldSelector=spec.name!=ada', ['p2', 'p7']],
      ['fieldSelector=metadata.name=(p4,p5,p8)', []],
      ['fieldSelector=metadata.name=(p1,p4,p5)', ['p1']],
      ['labelSelector=!team', ['p1', 'p9']],
    ];
    for (const [query, expected] of cases) {
      const res = await ada('GET', `${PERSONS}?sort=metadata.name,asc&${query}`);
      expect({ query, status: res.status, names: res.body.items && names(res), total: res.body.total }).toEqual({
        query,
        status: 200,
        names: expected,
        total: expected.length,
      });
    }
  });

  it('watches the union: the initial list, then objects entering and leaving it', async () => {
    const watch = await httpWatch(`${suite.server.url}${PERSONS}?watch=true`, basic('ada', 'ada-password'));
    try {
      expect(watch.status).toBe(200);
      const initial = await watch.events.take(VISIBLE.length);
      expect(initial.map((e) => `${e.type} ${e.object.metadata.name}`).sort()).toEqual(
        VISIBLE.map((n) => `ADDED ${n}`),
      );
      expectStatus(await suite.admin('POST', PERSONS, person('w1', { name: 'bob' }, { team: 'a' })), 201, 'w1');
      expectStatus(await suite.admin('POST', PERSONS, person('w2', { name: 'bob' })), 201, 'w2');
      expectStatus(
        await suite.admin('PATCH', `${PERSONS}/p4`, { metadata: { labels: { team: 'a' } } }, MERGE),
        200,
        'p4',
      );
      expectStatus(await suite.admin('PATCH', `${PERSONS}/p3`, { spec: { name: 'eve' } }, MERGE), 200, 'p3 stays');
      expectStatus(
        await suite.admin('PATCH', `${PERSONS}/p2`, { metadata: { labels: { team: 'b' } } }, MERGE),
        200,
        'p2',
      );
      const events = (await watch.events.take(VISIBLE.length + 4)).slice(VISIBLE.length);
      expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([
        'ADDED w1',
        'ADDED p4',
        'MODIFIED p3',
        'DELETED p2',
      ]);
    } finally {
      watch.close();
    }
  });

  it('deletes only the union’s matches of a collection', async () => {
    for (const [name, owner, team] of [
      ['t1', 'ada'],
      ['t2', 'bob', 'a'],
      ['t3', 'bob'],
      ['t4', 'eve', 'b'],
    ] as const) {
      const labels: Record<string, string> = { tmp: 'yes', ...(team ? { team } : {}) };
      expectStatus(await suite.admin('POST', PERSONS, person(name, { name: owner }, labels)), 201, name);
    }
    const res = await ada('DELETE', `${PERSONS}?labelSelector=tmp=yes`);
    expect(res.status).toBe(200);
    expect(names(res).sort()).toEqual(['t1', 't2']);
    // Persons carry a finalizer: the deleted ones stay, marked, until it is removed.
    const left = await suite.admin('GET', `${PERSONS}?labelSelector=tmp=yes&sort=metadata.name,asc`);
    const unmarked = left.body.items.filter((p: any) => !p.metadata.deletionTimestamp);
    expect(unmarked.map((p: any) => p.metadata.name)).toEqual(['t3', 't4']);
  });
});

const MERGE = { 'Content-Type': 'application/merge-patch+json' };
