import { request } from 'node:http';
import { connect } from 'node:net';
import { usePersonsApi, person, PERSONS } from '../support/person';

const suite = usePersonsApi({ maxBodyBytes: 4096 });
let revisionBefore: string;

/** Sends a path exactly as written (fetch would normalise dot segments away). */
function rawGet(path: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: suite.server.port, path, method: 'GET' }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  await suite.api('POST', PERSONS, person('keeper'));
  revisionBefore = (await suite.api('GET', PERSONS)).body.metadata.resourceVersion;
});

afterEach(async () => {
  const after = await suite.api('GET', PERSONS);
  expect(after.body.metadata.resourceVersion).toBe(revisionBefore);
  expect(after.body.items.map((i: any) => i.metadata.name)).toEqual(['keeper']);
});

const json = { 'Content-Type': 'application/json' };

it.each([
  ['malformed JSON', '{"metadata": {"name": "x"', json],
  ['malformed YAML', 'metadata: [name: x', { 'Content-Type': 'application/yaml' }],
  ['an array', '[1,2]', json],
  ['a string', '"person"', json],
  ['null', 'null', json],
  ['an empty body', '', json],
])('a body that is %s is 400', async (_what, body, headers) => {
  const res = await suite.api('POST', PERSONS, body, headers);
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
});

it('an unsupported body media type is 415', async () => {
  const res = await suite.api('POST', PERSONS, '<person/>', { 'Content-Type': 'application/xml' });
  expect(res.status).toBe(415);
});

it('a body in a content encoding other than identity is 415; identity is read as it is', async () => {
  for (const encoding of ['gzip', 'br, gzip']) {
    const res = await suite.api('POST', PERSONS, person('zipped'), { ...json, 'Content-Encoding': encoding });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType', code: 415 });
    expect(res.body.message).toBe(
      `the content encoding "${encoding}" is not supported; send the body uncompressed (identity)`,
    );
  }
  const identity = await suite.api('POST', PERSONS, '{"metadata":', { ...json, 'Content-Encoding': 'identity' });
  expect(identity.status).toBe(400);
});

it('a body over the limit is 413', async () => {
  const res = await suite.api('POST', PERSONS, person('big', { name: 'x'.repeat(5000) }));
  expect(res.status).toBe(413);
  expect(res.body.reason).toBe('RequestEntityTooLarge');
});

it.each([
  `${PERSONS}/a%2Fb`,
  `${PERSONS}/a%2fb`,
  `${PERSONS}/../persons/keeper`,
  `${PERSONS}/./keeper`,
  `${PERSONS}/%2e%2e/keeper`,
])('the path %s is 400', async (path) => {
  const res = await rawGet(path);
  expect(res.status).toBe(400);
  expect(res.body.kind).toBe('Status');
});

it('a huge number of query parameters is answered, not crashed on', async () => {
  const query = Array.from({ length: 2000 }, (_, i) => `p${i}=${i}`).join('&');
  const res = await suite.api('GET', `${PERSONS}?${query}`);
  expect([200, 400, 414, 431]).toContain(res.status);
  expect((await suite.api('GET', '/healthz')).status).toBe(200);
});

it('unknown routes are 404 Status objects, never a stack trace', async () => {
  for (const path of [
    '/nowhere',
    '/apis/example.com/v1alpha1/ghosts',
    '/apis/example.com/v9/persons',
    '/api/v1alpha1/ghosts',
  ]) {
    const res = await suite.api('GET', path);
    expect([path, res.status, res.body.kind]).toEqual([path, 404, 'Status']);
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.(ts|js):\d+/);
  }
});

it.each([`${PERSONS}/keeper/status/extra`, `${PERSONS}/keeper/status/a/b`, `${PERSONS}/keeper/x/y`])(
  'a path longer than <plural>/<name>/<subresource> (%s) is 404 for every method, and writes nothing',
  async (path) => {
    const { version } = (await suite.api('GET', `${PERSONS}/keeper`)).body.metadata;
    const patch = { 'Content-Type': 'application/merge-patch+json' };
    const answers = [
      await suite.api('GET', path),
      await suite.api('PUT', path, { metadata: { name: 'keeper', version }, status: { phase: 'EXTRA' } }),
      await suite.api('PATCH', path, { status: { phase: 'EXTRA' } }, patch),
      await suite.api('DELETE', path),
    ];
    expect(answers.map((res) => [res.status, res.body.reason])).toEqual(Array(4).fill([404, 'NotFound']));
  },
);

it('errors come as RFC 7807 when asked', async () => {
  const res = await suite.api('GET', `${PERSONS}/ghost`, undefined, { Accept: 'application/problem+json' });
  expect(res.status).toBe(404);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.body).toMatchObject({ status: 404, title: 'NotFound', instance: `${PERSONS}/ghost` });
});

it('a refused WebSocket upgrade is rendered the same way, as a Status or as RFC 7807', async () => {
  const upgrade = (accept?: string) =>
    new Promise<{ status: number; type: string; body: any }>((resolve, reject) => {
      const url = new URL(suite.server.url);
      const req = request({
        host: url.hostname,
        port: url.port,
        path: '/apis/nowhere.example/v1/things',
        headers: {
          Connection: 'Upgrade',
          Upgrade: 'websocket',
          'Sec-WebSocket-Version': '13',
          'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
          ...(accept ? { Accept: accept } : {}),
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body: JSON.parse(text) }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  const status = await upgrade();
  expect(status).toMatchObject({ status: 404, type: 'application/json', body: { kind: 'Status', code: 404 } });
  const problem = await upgrade('application/problem+json');
  expect(problem).toMatchObject({
    status: 404,
    type: 'application/problem+json',
    body: { status: 404, title: 'NotFound' },
  });
});

it('a malformed WebSocket frame closes that watch, and the server goes on', async () => {
  const url = new URL(suite.server.url);
  const closed = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      // Once upgraded, a text frame the client did not mask: the protocol forbids it.
      if (received.startsWith('HTTP/1.1 101') && received.includes('\r\n\r\n') && !socket.destroyed) {
        socket.write(Buffer.from([0x81, 0x02, 0x68, 0x69]));
      }
    });
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    socket.write(
      `GET ${PERSONS} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
  });
  expect(closed.startsWith('HTTP/1.1 101')).toBe(true);
  // ws closes with 1002 (protocol error): the close frame's status code 0x03ea.
  expect(closed).toContain('\x88\x02\x03\xea');
  expect((await suite.api('GET', '/healthz')).status).toBe(200);
});
