import { createServer, type Server } from 'node:http';
import type { Storage } from '../storage';

/**
 * Placeholder server until the generated API lands: answers the health
 * endpoints only. `/readyz` checks that the store answers.
 */
export function createHealthServer(storage: Storage): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const send = (code: number, body: string) => {
      res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(body);
    };
    if (path === '/healthz' || path === '/livez') return send(200, 'ok');
    if (path === '/readyz') {
      storage.ping().then((ok) => send(ok ? 200 : 503, ok ? 'ok' : 'storage unreachable'), () => send(503, 'storage unreachable'));
      return;
    }
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure',
      message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 }));
  });
}
