import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import WebSocket from 'ws';
import { consoleDir } from '../../pkg/apiserver/console';
import { basic, createToken, useRbacApi } from '../support/security';
import { TEST_ADMIN_PASSWORD } from '../support/apiserver';
import { PERSONS } from '../support/person';

// The apiserver serves the built console (console/dist, `make build`) at /console/ to everybody,
// and a browser's WebSocket watch authenticates with the token in a subprotocol.

const api = useRbacApi();

beforeAll(() => {
  if (!consoleDir()) throw new Error('console/dist is missing: run `make build` (it builds the console) first');
});

it('serves index.html uncached at /console/ and for client routes, to the anonymous visitor', async () => {
  for (const path of ['/console/', '/console/users/ada', '/console/models/core/v1alpha1/roles']) {
    const res = await api.anonymous('GET', path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.text).toContain('<div id="app">');
  }
});

it('redirects /console to /console/, serves hashed assets for a year, and 404s a missing file', async () => {
  const redirect = await fetch(`${api.server.url}/console?x=1`, { redirect: 'manual' });
  expect(redirect.status).toBe(301);
  expect(redirect.headers.get('location')).toBe('/console/?x=1');

  const index = (await api.anonymous('GET', '/console/')).text;
  const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(index)?.[1];
  expect(script).toBeDefined();
  const asset = await api.anonymous('GET', script as string);
  expect(asset.status).toBe(200);
  expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

  const missing = await api.anonymous('GET', '/console/assets/nothing-here.js');
  expect(missing.status).toBe(404);
  expect(missing.body).toMatchObject({ kind: 'Status', reason: 'NotFound' });
  // A path out of the build is refused, never served.
  const escape = await api.anonymous('GET', '/console/..%2fpackage.json');
  expect(escape.status).toBeGreaterThanOrEqual(400);
  expect(escape.body).toMatchObject({ kind: 'Status' });
  expect((await api.anonymous('POST', '/console/', '{}')).status).toBe(401);
  expect((await api.admin('POST', '/console/', '{}')).status).toBe(405);
});

/** A raw GET (fetch would add its own Accept-Encoding and decompress): status, headers and body bytes. */
function rawGet(url: string, acceptEncoding?: string) {
  return new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    get(url, { headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

it('sends the precompressed brotli or gzip form of an asset to a client that accepts it, and the plain file else', async () => {
  const index = (await api.anonymous('GET', '/console/')).text;
  const url = api.server.url + (/src="(\/console\/assets\/[^"]+\.js)"/.exec(index)?.[1] as string);
  const plain = await rawGet(url);
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.headers.vary).toBe('Accept-Encoding');

  const br = await rawGet(url, 'gzip, deflate, br');
  expect(br.headers['content-encoding']).toBe('br');
  expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
  expect(Number(br.headers['content-length'])).toBe(br.body.length);
  expect(br.body.length).toBeLessThan(plain.body.length / 2);
  expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);

  const gzip = await rawGet(url, 'br;q=0, gzip');
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
  expect((await rawGet(url, 'identity')).headers['content-encoding']).toBeUndefined();
});

it('shadows no API path: the API under /api and /apis answers as before', async () => {
  const discovery = await api.anonymous('GET', '/apis/console/v1');
  expect(discovery.status).toBe(404);
  expect(discovery.body).toMatchObject({ kind: 'Status' });
  expect((await api.admin('GET', '/api/v1alpha1/users')).status).toBe(200);
});

it("watches over WebSocket with a browser's token subprotocol, and never echoes the token", async () => {
  const { token } = await createToken(api.as(basic('admin', TEST_ADMIN_PASSWORD)));
  const url = `${api.server.url.replace('http', 'ws')}${PERSONS}`;
  const tokenProtocol = `base64url.bearer.authorization.k8s.io.${Buffer.from(token).toString('base64url')}`;
  const ws = new WebSocket(url, ['svc.watch', tokenProtocol]);
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  expect(ws.protocol).toBe('svc.watch');
  ws.close();

  const anonymous = new WebSocket(url, ['svc.watch']);
  const refused = await new Promise<number>((resolve) =>
    anonymous.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
  );
  expect(refused).toBe(401);
});
