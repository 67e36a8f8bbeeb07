import pino from 'pino';
import { Counter, Registry } from 'prom-client';
import { parseListen, serveMetrics, type MetricsServer } from './metrics-server';

const log = pino({ level: process.env.SVC_TEST_LOG_LEVEL ?? 'silent' });

describe('parseListen', () => {
  it.each([
    ['127.0.0.1:10257', ['127.0.0.1', 10257]],
    ['[::1]:0', ['::1', 0]],
    [':9090', ['0.0.0.0', 9090]],
  ])('%s → %j', (listen, expected) => {
    expect(parseListen(listen)).toEqual(expected);
  });

  it.each(['10257', 'host:', 'host:port', 'host:70000'])('refuses %s', (listen) => {
    expect(() => parseListen(listen)).toThrow(/HOST:PORT/);
  });
});

describe('serveMetrics', () => {
  let server: MetricsServer;
  beforeAll(async () => {
    const registry = new Registry();
    new Counter({ name: 'svc_test_total', help: 'a test counter', registers: [registry] }).inc(3);
    server = await serveMetrics('127.0.0.1:0', registry, log);
  });
  afterAll(() => server.close());

  it('serves the registry at /metrics in the Prometheus text format', async () => {
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    expect(await res.text()).toContain('svc_test_total 3');
  });

  it('answers /healthz with ok, and 404 elsewhere', async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect([health.status, await health.text()]).toEqual([200, 'ok']);
    expect((await fetch(`${server.url}/other`)).status).toBe(404);
    expect((await fetch(`${server.url}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('answers /livez with ok and /readyz with what the readiness probe names: 503 while it names anything', async () => {
    let problems: string[] = ['leader not known yet', 'informers not synced: persons.example.com'];
    const probed = await serveMetrics('127.0.0.1:0', new Registry(), log, () => Promise.resolve(problems));
    try {
      const live = await fetch(`${probed.url}/livez`);
      expect([live.status, await live.text()]).toEqual([200, 'ok']);
      const unready = await fetch(`${probed.url}/readyz`);
      expect([unready.status, await unready.text()]).toEqual([503, problems.join('\n')]);
      problems = [];
      const ready = await fetch(`${probed.url}/readyz`);
      expect([ready.status, await ready.text()]).toEqual([200, 'ok']);
    } finally {
      await probed.close();
    }
  });

  it('refuses an address that is taken', async () => {
    await expect(serveMetrics(`127.0.0.1:${server.port}`, new Registry(), log)).rejects.toThrow(/EADDRINUSE/);
  });
});
