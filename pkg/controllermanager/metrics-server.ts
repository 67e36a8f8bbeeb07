import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Logger } from '../util/log';

/** The controller-manager's own HTTP endpoint: `/metrics`, `/healthz`, `/livez` and `/readyz`. */
export interface MetricsServer {
  /** e.g. `http://127.0.0.1:10257`. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** `127.0.0.1:10257` → ['127.0.0.1', 10257]; `[::1]:0` → ['::1', 0]; `:9090` → ['0.0.0.0', 9090]. Throws on anything else. */
export function parseListen(listen: string): [string, number] {
  const at = listen.lastIndexOf(':');
  const portText = listen.slice(at + 1);
  const port = Number(portText);
  if (at < 0 || !/^\d+$/.test(portText) || port > 65535)
    throw new Error(`--metrics-listen must be HOST:PORT, got "${listen}"`);
  return [listen.slice(0, at).replace(/^\[(.*)\]$/, '$1') || '0.0.0.0', port];
}

/** What keeps the process from being ready, one line each (empty: ready). */
export type ReadinessProbe = () => Promise<string[]>;

const alwaysReady: ReadinessProbe = () => Promise.resolve([]);

/**
 * Serves `/metrics` (Prometheus text from `registry`), `/healthz` and `/livez`
 * (200 `ok` while the process runs) and `/readyz` (200 `ok`, or 503 with what
 * `readiness` names) on `listen` (`host:port`, port 0 for a free one).
 * Resolves once listening; rejects when the address cannot be bound.
 */
export async function serveMetrics(
  listen: string,
  registry: Registry,
  log: Logger,
  readiness: ReadinessProbe = alwaysReady,
): Promise<MetricsServer> {
  const [host, requestedPort] = parseListen(listen);
  const server = createServer((req, res) => {
    handle(req, res, registry, readiness).catch((err: unknown) => {
      log.error({ err }, 'metrics request failed');
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('internal error\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(requestedPort, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log.info({ url }, 'serving /metrics and /healthz'); // also /livez and /readyz; tools look for this message
  return {
    url,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  registry: Registry,
  readiness: ReadinessProbe,
): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { 'Content-Type': 'text/plain', Allow: 'GET, HEAD' }).end('method not allowed\n');
  } else if (path === '/metrics') {
    const body = await registry.metrics();
    res.writeHead(200, { 'Content-Type': registry.contentType }).end(req.method === 'HEAD' ? undefined : body);
  } else {
    const [code, body] = await probeAnswer(path, readiness);
    res.writeHead(code, { 'Content-Type': 'text/plain' }).end(body);
  }
}

/** The answer to a probe path: `/healthz` and `/livez` while the process runs, `/readyz` as `readiness` says. */
async function probeAnswer(path: string, readiness: ReadinessProbe): Promise<[number, string]> {
  if (path === '/healthz' || path === '/livez') return [200, 'ok'];
  if (path !== '/readyz') return [404, 'not found; try /metrics, /healthz, /livez or /readyz\n'];
  const problems = await readiness();
  return problems.length ? [503, problems.join('\n')] : [200, 'ok'];
}
