import { createServer, connect, type Server, type Socket } from 'node:net';
import { freePort } from '../../pkg/util/free-port';
import { startTestControllerManager, usePersonsApiServer } from '../support/controller-manager';
import { waitFor } from '../support/wait-for';

// The controller-manager's /readyz on its metrics port, against a real apiserver reached through a TCP proxy
// that a test can cut (connections dropped, port closed) and restore on the same port.

const shared = usePersonsApiServer();

/** A TCP proxy to `target` on a fixed free port, which `cut()` makes unreachable until `restore()`. */
interface CuttableProxy {
  url: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
}

const proxies: CuttableProxy[] = [];
afterAll(() => Promise.all(proxies.map((p) => p.cut())));

async function cuttableProxy(target: string): Promise<CuttableProxy> {
  const { hostname, port: targetPort } = new URL(target);
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const restore = () =>
    new Promise<void>((resolve, reject) => {
      const listening = createServer((client) => {
        const upstream = connect(Number(targetPort), hostname);
        track(client);
        track(upstream);
        client.pipe(upstream).pipe(client);
        client.on('error', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
      });
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => resolve());
      server = listening;
    });
  const cut = async () => {
    const closing = server;
    server = undefined;
    if (!closing) return;
    const closed = new Promise((resolve) => closing.close(resolve));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  await restore();
  const proxy = { url: `http://127.0.0.1:${port}`, cut, restore };
  proxies.push(proxy);
  return proxy;
}

/** The status and text of GET <metrics url>/readyz. */
async function readyz(metricsUrl: string | undefined): Promise<{ status: number; text: string }> {
  const res = await fetch(`${metricsUrl}/readyz`);
  return { status: res.status, text: await res.text() };
}

const becomes = (metricsUrl: string | undefined, status: number, what: string) =>
  waitFor(async () => (await readyz(metricsUrl)).status === status, { timeoutMs: 15_000, what });

describe('the controller-manager /readyz', () => {
  it('is not ready while the apiserver is out of reach and no leader is known; the leader and the standby are ready once it is back', async () => {
    const proxy = await cuttableProxy(shared.server.url);
    await proxy.cut();
    const lease = { leaseName: 'readiness-pair' };
    const first = await startTestControllerManager(proxy.url, {
      controllers: ['gc'],
      metricsListen: '127.0.0.1:0',
      leaderElection: lease,
    });
    const unready = await readyz(first.metricsUrl);
    expect(unready.status).toBe(503);
    expect(unready.text).toMatch(/^apiserver unreachable: .+\nleader not known yet$/);
    expect((await fetch(`${first.metricsUrl}/livez`)).status).toBe(200);

    await proxy.restore();
    await becomes(first.metricsUrl, 200, 'the first controller-manager to be ready');
    expect(first.manager.isLeader()).toBe(true);
    expect(first.manager.informers.unsynced()).toEqual([]);

    const second = await startTestControllerManager(shared.server.url, {
      controllers: ['gc'],
      metricsListen: '127.0.0.1:0',
      leaderElection: lease,
    });
    await becomes(second.metricsUrl, 200, 'the standby to be ready');
    expect(second.manager.isLeader()).toBe(false);
    expect(second.manager.leaderIdentity()).toBe(first.identity);
  });

  it('turns unready when the apiserver stops answering, and ready again when it is back', async () => {
    const proxy = await cuttableProxy(shared.server.url);
    const cm = await startTestControllerManager(proxy.url, {
      controllers: ['gc'],
      metricsListen: '127.0.0.1:0',
      leaderElection: false,
    });
    await becomes(cm.metricsUrl, 200, 'the controller-manager to be ready');
    await proxy.cut();
    await becomes(cm.metricsUrl, 503, 'the controller-manager to be unready');
    expect((await readyz(cm.metricsUrl)).text).toMatch(/^apiserver unreachable: /);
    await proxy.restore();
    await becomes(cm.metricsUrl, 200, 'the controller-manager to be ready again');
  });
});
