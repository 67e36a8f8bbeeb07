import { request } from 'node:http';
import { client, startTestApiServer } from '../support/apiserver';
import { applyPersonModel, person, PERSONS } from '../support/person';
import { httpWatch } from '../support/watch-client';

describe('draining on shutdown', () => {
  it('ends open watches cleanly, finishes in-flight requests, and refuses new connections', async () => {
    const server = await startTestApiServer();
    const api = client(server.url);
    await applyPersonModel(api);
    const watch = await httpWatch(`${server.url}${PERSONS}?watch=true`);
    // A request whose body is still arriving when the shutdown starts.
    const body = JSON.stringify(person('drain-me'));
    const req = request({
      host: '127.0.0.1',
      port: server.port,
      path: PERSONS,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) },
    });
    const answered = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
    });
    const arrived = new Promise((resolve) => server.server.servers[0]?.once('request', resolve));
    req.write(body.slice(0, 10));
    await arrived;
    const stopped = server.stop();
    req.end(body.slice(10));
    expect(await answered).toBe(201);
    await stopped;
    await watch.events.untilEnded();
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });
});

describe('a model whose indexes are being built', () => {
  it('answers 503 with Retry-After until they are built, and /readyz says why', async () => {
    const server = await startTestApiServer();
    const api = client(server.url);
    try {
      await applyPersonModel(api);
      const registered = server.schemes.lookup('example.com', 'v1alpha1', 'persons')!;
      let ready = false;
      const isReady = server.schemes.isReady.bind(server.schemes);
      server.schemes.isReady = (r) => (r === registered ? ready : isReady(r));
      const res = await api('GET', PERSONS);
      expect(res.status).toBe(503);
      expect(res.body.reason).toBe('ServiceUnavailable');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      const readyz = await api('GET', '/readyz');
      expect(readyz.status).toBe(503);
      expect(readyz.text).toContain('persons.example.com');
      ready = true;
      expect((await api('GET', PERSONS)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
