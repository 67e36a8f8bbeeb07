import { request } from 'node:http';
import { TEST_ADMIN_PASSWORD, type ApiClient } from '../support/apiserver';
import { MODELS, PERSONS, person } from '../support/person';
import {
  ACCESS_REVIEWS,
  basic,
  bind,
  createRole,
  createUser,
  expectStatus,
  UC_TOKENS,
  USERS,
  useRbacApi,
} from '../support/security';
import { waitFor } from '../support/wait-for';

// Input that costs the server: schema patterns run in linear time, the work of one body is bounded, and no write
// reads a body of a type that a page of another site can make a browser send with the credentials it keeps.
const suite = useRbacApi();
const CODES = '/apis/example.net/v1alpha1/codes';
const SELF_PASSWORD = '/apis/uc.api.security.svc.run/v1alpha1/users/-/password';
const PERMISSIONS = '/apis/api.console.svc.run/v1alpha1/users/eve/permissions';
const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
let eve: ApiClient;
/** What marks a request as a browser's: every browser sends `Origin` with a POST, and `Sec-Fetch-Site`. */
const BROWSER_HEADERS: Record<string, string>[] = [
  { Origin: 'https://elsewhere.example' },
  { 'Sec-Fetch-Site': 'cross-site' },
];

/** A Model of `codes.example.net` whose `spec.code` must match `pattern`. */
const codeModel = (pattern: string) => ({
  metadata: { name: 'codes.example.net' },
  spec: {
    group: 'example.net',
    version: 'v1alpha1',
    names: { kind: 'Code', singular: 'code', plural: 'codes' },
    schema: {
      type: 'object',
      properties: { spec: { type: 'object', properties: { code: { type: 'string', pattern } } } },
    },
  },
});

beforeAll(async () => {
  eve = await createUser(suite, 'eve');
  await createRole(suite, 'eve-writer', [
    { apiGroups: ['apiextensions.svc.run'], resources: ['models'], verbs: ['create', 'get'] },
    { apiGroups: ['example.com', 'example.net'], resources: ['*'], verbs: ['*'] },
  ]);
  await bind(suite, 'eve', 'eve-writer');
});

describe('schema patterns', () => {
  it('refuses a Model whose pattern RE2 cannot compile, with 422 naming the pattern', async () => {
    const res = await eve('POST', MODELS, codeModel('^(?=a)a$'));
    expect(res.status).toBe(422);
    expect(res.body.details.causes).toEqual([
      expect.objectContaining({
        field: 'spec.schema.properties.spec.properties.code.pattern',
        reason: 'FieldValueInvalid',
        message: expect.stringContaining('must be a valid RE2 regular expression'),
      }),
    ]);
  });

  it('answers the catastrophic ^(a+)+$ against 30 a and a ! at once, and the server goes on', async () => {
    expectStatus(await eve('POST', MODELS, codeModel('^(a+)+$')), 201, 'creating the codes model');
    await waitFor(async () => (await eve('GET', CODES)).status === 200, { what: 'the codes API to be served' });
    const started = Date.now();
    const [bad, health] = await Promise.all([
      eve('POST', CODES, { metadata: { name: 'bad' }, spec: { code: `${'a'.repeat(30)}!` } }),
      suite.anonymous('GET', '/healthz'),
    ]);
    expect(bad.status).toBe(422);
    expect(bad.body.details.causes[0].field).toBe('spec.code');
    expect(health.status).toBe(200);
    // A backtracking engine spends 2^30 steps here (seconds, the event loop blocked); RE2 is linear.
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await eve('POST', CODES, { metadata: { name: 'good' }, spec: { code: 'aaa' } })).status).toBe(201);
  });
});

describe('the work of one request', () => {
  const names = async () => (await eve('GET', PERSONS)).body.items.map((p: any) => p.metadata.name);

  it('refuses 150,000 unknown fields with 413 before pruning them, and stores nothing', async () => {
    const unknown = Object.fromEntries(Array.from({ length: 150_000 }, (_, i) => [`f${i}`, 1]));
    const body = JSON.stringify(person('wide', unknown));
    const started = Date.now();
    const res = await postOnNewConnection(PERSONS, body, basic('eve', 'eve-password'));
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text)).toMatchObject({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413 });
    // Counted on the text and refused before parsing; pruning them took seconds of the event loop.
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await names()).not.toContain('wide');
  });

  it('refuses 20,000 labels with 413 (each is a field and an index entry)', async () => {
    const labels = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`l${i}`, 'v']));
    expect((await eve('POST', PERSONS, person('labelled', {}, labels))).status).toBe(413);
    expect(await names()).not.toContain('labelled');
  });

  it.each([
    ['a label name longer than 63', { labels: { [`example.com/${'n'.repeat(64)}`]: 'v' } }, 'metadata.labels'],
    ['a label prefix longer than 253', { labels: { [`${'p'.repeat(254)}/name`]: 'v' } }, 'metadata.labels'],
    ['a label value longer than 63', { labels: { app: 'v'.repeat(64) } }, 'metadata.labels'],
    ['annotations over 256 KiB', { annotations: { note: 'x'.repeat(256 * 1024) } }, 'metadata.annotations'],
  ])('refuses %s with 422 naming the field', async (_what, metadata, field) => {
    const res = await eve('POST', PERSONS, { ...person('big-meta'), metadata: { name: 'big-meta', ...metadata } });
    expect(res.status).toBe(422);
    expect(res.body.details.causes.map((c: any) => c.field)).toContain(field);
  });
});

describe('the media type of a body', () => {
  type Caller = 'eve' | 'admin';
  const clientOf = (who: Caller) => (who === 'eve' ? eve : suite.admin);
  const credentialsOf = (who: Caller) =>
    who === 'eve' ? basic('eve', 'eve-password') : basic('admin', TEST_ADMIN_PASSWORD);
  /** Every kind of write that reads a body, with a valid body, by eve or by the admin (whose cached credentials a page would use). */
  const writes: [string, Caller, string, string, unknown][] = [
    ['a generated create', 'eve', 'POST', PERSONS, person('typed')],
    ['a password change', 'eve', 'PUT', SELF_PASSWORD, { oldPassword: 'eve-password', password: 'taken-over-1' }],
    ['a personal access token', 'eve', 'POST', UC_TOKENS, { spec: { displayName: 'stolen' } }],
    ['an access review', 'eve', 'POST', ACCESS_REVIEWS, { spec: { verb: 'get', path: '/healthz' } }],
    [
      'a SelfSubjectAccessReview',
      'eve',
      'POST',
      SSAR,
      { spec: { resourceAttributes: { verb: 'get', resource: 'x' } } },
    ],
    ['a role assignment', 'admin', 'POST', PERMISSIONS, { roles: ['super-role'] }],
    ["an administrator's password reset", 'admin', 'PUT', `${USERS}/eve/password`, { password: 'taken-over-1' }],
  ];
  const nothingChanged = async () => {
    expect((await eve('GET', UC_TOKENS)).body.items).toEqual([]);
    expect((await eve('GET', `${PERSONS}/typed`)).status).toBe(404);
    expect((await eve('GET', '/api/v1alpha1/roles')).status).toBe(403);
  };

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])(
    'is 415 for %s, which a cross-site form can send, on every write; nothing changes',
    async (type) => {
      for (const [what, who, method, path, body] of writes) {
        const res = await clientOf(who)(method, path, JSON.stringify(body), { 'Content-Type': type });
        expect([what, res.status, res.body?.reason]).toEqual([what, 415, 'UnsupportedMediaType']);
      }
      await nothingChanged();
    },
  );

  it('is 415 without a Content-Type from a browser (Origin, Sec-Fetch-Site): a fetch of bytes from any site', async () => {
    for (const [what, who, method, path, body] of writes) {
      for (const browser of BROWSER_HEADERS) {
        // A Uint8Array body: fetch sends it without a Content-Type, as a page's fetch or sendBeacon can.
        const res = await fetch(`${suite.server.url}${path}`, {
          method,
          body: new TextEncoder().encode(JSON.stringify(body)),
          headers: { ...credentialsOf(who), ...browser },
        });
        expect([what, res.status]).toEqual([what, 415]);
      }
    }
    await nothingChanged();
  });

  it('reads a body without a Content-Type as JSON from a client that is no browser (curl -T)', async () => {
    const res = await fetch(`${suite.server.url}${PERSONS}`, {
      method: 'POST',
      body: new TextEncoder().encode(JSON.stringify(person('curled'))),
      headers: basic('eve', 'eve-password'),
    });
    expect(res.status).toBe(201);
  });
});

/**
 * POSTs a JSON body on a connection of its own: building a large body keeps this process (the server's too) busy for
 * longer than the server keeps an idle connection, and fetch may send on a pooled one the server is just closing.
 */
function postOnNewConnection(
  path: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${suite.server.url}${path}`,
      { method: 'POST', agent: false, headers: { ...headers, 'Content-Type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
