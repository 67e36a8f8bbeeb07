import { createServer } from 'node:http';
import Redis from 'ioredis';

/**
 * The bare limit of the HTTP label page: a plain Node server
 * that answers `GET /page` with the 20 newest gold objects, read from one
 * sorted set of them (`ZREVRANGE` + `MGET` of their JSON + `ZCARD`), as a
 * list envelope built by string concatenation. No selector parsing, no
 * authorisation, no continue token.
 *
 * Usage: node bare-label-server.js --listen HOST:PORT --redis URL --set KEY --objects PREFIX
 */
const args = new Map<string, string>();
for (let i = 2; i + 1 < process.argv.length; i += 2) args.set(process.argv[i], process.argv[i + 1]);
const [host, port] = (args.get('--listen') ?? '127.0.0.1:0').split(':');
const set = args.get('--set') ?? '';
const objects = args.get('--objects') ?? '';
const redis = new Redis(args.get('--redis') ?? '');

async function page(): Promise<string> {
  const names = await redis.zrevrange(set, 0, 19);
  const [items, total] = await Promise.all([
    names.length > 0 ? redis.mget(...names.map((n) => `${objects}${n}`)) : Promise.resolve([]),
    redis.zcard(set),
  ]);
  return `{"kind":"PersonList","metadata":{"total":${total}},"items":[${items.filter((i) => i !== null).join(',')}]}`;
}

createServer((req, res) => {
  if (req.url === '/healthz') {
    res.end('ok');
    return;
  }
  page().then(
    (body) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    },
    (err: Error) => {
      res.writeHead(500);
      res.end(err.message);
    },
  );
}).listen(Number(port), host);
