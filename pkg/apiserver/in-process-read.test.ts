import type { IncomingMessage } from 'node:http';
import { answerText, type ObjectRead, type ObjectReadAnswer } from '../api/object-read';
import type { ApiObject } from '../api/object';
import type { Authenticator } from '../auth/authenticator';
import type { Authorizer } from '../auth/authorizer';
import { bindCondition } from '../auth/rbac/conditions';
import type { UserInfo } from '../auth/user';
import { openStorage } from '../storage';
import type { Storage } from '../storage/interface';
import { SchemeManager } from '../registry/scheme';
import { captureLog, type CapturedLog } from '../../test/support/log-capture';
import { sharedRedisUrl, uniqueKeyPrefix } from '../../test/support/redis';
import type { AuditRecord } from './audit/record';
import type { AuditRecorder } from './audit/recorder';
import { RouteTable } from './routes';
import { sendJson } from './respond';
import { ApiServer } from './server';

// An in-process read (a plugin's ctx.client / req.client get or list) is judged and answered as the same GET over
// HTTP is: each case below asks both and compares what the caller gets.
const NOTES = { group: 'notes.example.com', version: 'v1', resource: 'notes' };
const PATH = '/apis/notes.example.com/v1/notes';

const user = (name: string): UserInfo => ({ name, groups: ['authenticated'] });
const ADMIN = user('admin');
const ADA = user('ada');
const EVE = user('eve');
const ANONYMOUS: UserInfo = { name: 'anonymous', groups: ['anonymous'] };

/** Over HTTP, the test names its user in a header; in process, the caller is given. */
const byHeader: Authenticator = {
  authenticate: async (req: IncomingMessage) => {
    const name = req.headers['x-test-user'];
    if (name === undefined || name === 'anonymous') return undefined;
    return user(String(name));
  },
};

/** admin may read anything; ada only notes she owns (a conditional rule); eve and the anonymous nothing. */
const authorizer: Authorizer = {
  authorize: async ({ user: who }) =>
    who.name === 'admin'
      ? { decision: 'Allow', reason: 'admin reads all' }
      : { decision: 'NoOpinion', reason: `no rule allows ${who.name}` },
};

const note = (name: string, owner: string, labels: Record<string, string> = {}): ApiObject => ({
  apiVersion: 'notes.example.com/v1',
  kind: 'Note',
  metadata: { name, labels },
  spec: { owner },
});

let storage: Storage;
let server: ApiServer;
let captured: CapturedLog;
const audited: AuditRecord[] = [];

beforeAll(async () => {
  captured = captureLog('info');
  // Redis, which keeps each object as its JSON text: a get the caller may make whole is answered with that text.
  storage = await openStorage(sharedRedisUrl(), { keyPrefix: uniqueKeyPrefix('in-process-read') });
  const schemes = new SchemeManager(storage, captured.log);
  const { store } = await schemes.register({
    group: NOTES.group,
    version: NOTES.version,
    kind: 'Note',
    singular: 'note',
    plural: NOTES.resource,
    indexes: [{ name: 'spec.owner', indexFunc: (o) => (o.spec as { owner?: string } | undefined)?.owner }],
  });
  await waitUntilReady(schemes);
  for (const [name, owner, team] of [
    ['a1', 'ada', 'red'],
    ['a2', 'ada', 'blue'],
    ['a3', 'ada', 'red'],
    ['b1', 'bob', 'red'],
  ])
    await store.create(note(name, owner, { team }));
  const routes = new RouteTable();
  routes.add({ group: NOTES.group, version: NOTES.version, resource: 'digests' }, async (ctx) =>
    sendJson(ctx.res, 200, { from: 'route' }),
  );
  server = new ApiServer({
    storage,
    schemes,
    routes,
    authenticators: [byHeader],
    authorizer,
    conditions: (who, info) =>
      who.name === 'ada' && info.resource === NOTES.resource
        ? [bindCondition({ fieldSelector: 'spec.owner=${user.name}' }, who, false)!]
        : [],
    log: captured.log,
  });
  server.audit = {
    level: 'All',
    recorder: { record: (r: AuditRecord) => audited.push(r) } as unknown as AuditRecorder,
  };
});

afterAll(() => storage.close());

async function waitUntilReady(schemes: SchemeManager): Promise<void> {
  const registered = schemes.lookup(NOTES.group, NOTES.version, NOTES.resource)!;
  const deadline = Date.now() + 5000;
  while (!schemes.isReady(registered)) {
    if (Date.now() > deadline) throw new Error('the notes model never became ready');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** What the same read answers over HTTP (the whole pipeline, in process), as an in-process answer. */
async function overHttp(url: string, caller: UserInfo): Promise<ObjectReadAnswer> {
  const answer = await server.inject({ method: 'GET', url, headers: { 'x-test-user': caller.name } });
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  return answer.status === 200 ? { object: body } : { status: body as never };
}

/** What the reader gets: the answer's text, as it crosses to a plugin's worker, parsed there. */
async function readAs(read: ObjectRead, caller: UserInfo): Promise<ObjectReadAnswer> {
  return JSON.parse(answerText(await server.readInProcess(read, caller))) as ObjectReadAnswer;
}

const get = (name: string): ObjectRead => ({ verb: 'get', ...NOTES, name });
const list = (options: Extract<ObjectRead, { verb: 'list' }>['options'] = {}): ObjectRead => ({
  verb: 'list',
  ...NOTES,
  options,
});
const names = (answer: ObjectReadAnswer) =>
  'object' in answer ? (answer.object as { items: ApiObject[] }).items.map((o) => o.metadata.name) : answer;

describe('an in-process read', () => {
  it('answers an allowed get with the object the HTTP GET answers', async () => {
    const answer = await readAs(get('a1'), ADMIN);
    expect(answer).toEqual(await overHttp(`${PATH}/a1`, ADMIN));
    expect(answer).toMatchObject({ object: { kind: 'Note', metadata: { name: 'a1' }, spec: { owner: 'ada' } } });
  });

  it('passes a whole get on as the stored JSON text, and a get a conditional rule must judge as the object', async () => {
    const whole = await server.readInProcess(get('a1'), ADMIN);
    expect(whole).toEqual({ objectJson: expect.any(String) });
    expect(JSON.parse((whole as { objectJson: string }).objectJson)).toEqual(
      ((await overHttp(`${PATH}/a1`, ADMIN)) as { object: unknown }).object,
    );
    expect(await server.readInProcess(get('a2'), ADA)).toMatchObject({ object: { metadata: { name: 'a2' } } });
  });

  it('answers 404 for a missing object, with the Status HTTP answers', async () => {
    const answer = await readAs(get('nobody'), ADMIN);
    expect(answer).toMatchObject({ status: { code: 404, reason: 'NotFound' } });
    expect(answer).toEqual(await overHttp(`${PATH}/nobody`, ADMIN));
  });

  it('refuses a user no rule allows with the 403 body HTTP gives, and the anonymous with its 401', async () => {
    const refused = await readAs(get('a1'), EVE);
    expect(refused).toMatchObject({ status: { code: 403, reason: 'Forbidden' } });
    expect(refused).toEqual(await overHttp(`${PATH}/a1`, EVE));
    expect((refused as { status: { message: string } }).status.message).toContain(
      'User "eve" cannot get resource "notes" in API group "notes.example.com"',
    );
    const listed = await readAs(list(), EVE);
    expect(listed).toEqual(await overHttp(PATH, EVE));
    const anonymous = await readAs(get('a1'), ANONYMOUS);
    expect(anonymous).toMatchObject({ status: { code: 401 } });
    expect(anonymous).toEqual(await overHttp(`${PATH}/a1`, ANONYMOUS));
  });

  it('checks a conditional get on the stored object: its own note is read, another is 404 as over HTTP', async () => {
    expect(await readAs(get('a2'), ADA)).toMatchObject({ object: { metadata: { name: 'a2' } } });
    const other = await readAs(get('b1'), ADA);
    expect(other).toMatchObject({ status: { code: 404, reason: 'NotFound' } });
    expect(other).toEqual(await overHttp(`${PATH}/b1`, ADA));
  });

  it('narrows a conditional list to the conditions, merged with the selectors as the HTTP list does', async () => {
    expect(names(await readAs(list({ sort: ['metadata.name'] }), ADA))).toEqual(['a1', 'a2', 'a3']);
    const red = await readAs(list({ labelSelector: 'team=red', sort: ['metadata.name'] }), ADA);
    expect(names(red)).toEqual(['a1', 'a3']);
    expect(red).toEqual(await overHttp(`${PATH}?labelSelector=team%3Dred&sort=metadata.name`, ADA));
    expect(names(await readAs(list({ fieldSelector: 'spec.owner=bob' }), ADA))).toEqual([]);
  });

  it('lists with selectors, sort and limit/continue paging, page by page as over HTTP', async () => {
    const red = { labelSelector: 'team=red', sort: ['metadata.name'], limit: 2 };
    const first = await readAs(list(red), ADMIN);
    expect(first).toEqual(await overHttp(`${PATH}?labelSelector=team%3Dred&sort=metadata.name&limit=2`, ADMIN));
    expect(names(first)).toEqual(['a1', 'a3']);
    const token = (first as { object: { metadata: { continue: string } } }).object.metadata.continue;
    expect(token).toEqual(expect.any(String));
    const second = await readAs(list({ ...red, continue: token }), ADMIN);
    expect(names(second)).toEqual(['b1']);
    const sorted = await readAs(list({ sort: ['metadata.name,desc'] }), ADMIN);
    expect(names(sorted)).toEqual(['b1', 'a3', 'a2', 'a1']);
    expect(sorted).toEqual(await overHttp(`${PATH}?sort=metadata.name%2Cdesc`, ADMIN));
  });

  it('answers a bad selector with the 400 HTTP answers', async () => {
    const bad = await readAs(list({ labelSelector: 'team in (' }), ADMIN);
    expect(bad).toMatchObject({ status: { code: 400, reason: 'BadRequest' } });
    expect(bad).toEqual(await overHttp(`${PATH}?labelSelector=${encodeURIComponent('team in (')}`, ADMIN));
  });

  it('leaves to the request path what is no plain read of a model: a custom route, a name that is no one segment, a malformed read', async () => {
    expect(await readAs({ verb: 'get', ...NOTES, resource: 'digests', name: 'x' }, ADMIN)).toEqual({
      unserved: true,
    });
    for (const name of ['', '.', '..', '../roles', 'a1/status'])
      expect(await readAs(get(name), ADMIN)).toEqual({ unserved: true });
    for (const group of ['notes.example.com/v1/notes/a1#', '..', 'a?b'])
      expect(await readAs({ ...get('a1'), group }, ADMIN)).toEqual({ unserved: true });
    const crafted = [
      { verb: 'watch', ...NOTES },
      { verb: 'get', ...NOTES, name: 7 },
      { verb: 'list', ...NOTES, options: { limit: '2' } },
      { verb: 'list', ...NOTES, options: { sort: 'metadata.name' } },
      { verb: 'list', ...NOTES, options: null },
      null,
    ] as unknown as ObjectRead[];
    for (const read of crafted) expect(await readAs(read, ADMIN)).toEqual({ unserved: true });
  });

  it('is audited and counted as a request, and writes no access-log line of its own', async () => {
    captured.lines.length = 0;
    audited.length = 0;
    await readAs(get('a1'), ADMIN);
    await readAs(get('a1'), EVE);
    expect(captured.lines.filter((l) => l.msg === 'request')).toEqual([]);
    expect(audited).toEqual([
      expect.objectContaining({ user: 'admin', verb: 'get', resource: 'notes', name: 'a1', code: 200 }),
      expect.objectContaining({ user: 'eve', verb: 'get', name: 'a1', code: 403, decision: 'deny' }),
    ]);
    expect(audited[0]).toMatchObject({ decision: 'allow', reason: 'admin reads all', path: `${PATH}/a1` });
    const counted = await server.metrics.requests.get();
    expect(counted.values).toContainEqual(
      expect.objectContaining({ labels: expect.objectContaining({ verb: 'get', resource: 'notes', code: '403' }) }),
    );
  });
});
