/**
 * The baseline server of the apiserver benchmark: a bare Node `http` server,
 * run as its own process, that serves the same Redis data as the apiserver
 * with nothing in between (see BaselineStore):
 *
 *   GET  /objects/<name>   the stored JSON of one object (HGET)
 *   GET  /list?limit=N     the N newest objects in a list envelope
 *   POST /objects          a create through the backend's write script
 *   GET  /watch            the type's change stream, fanned out (see BaselineFanout)
 *   GET  /healthz          200 once Redis is connected
 *
 * node dist/bench/apiserver/baseline-server.js --listen 127.0.0.1:9000 \
 *   --redis redis://127.0.0.1:6379/0 --key-prefix bench-x --model manifests/examples/person-model.yaml
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Command, Option } from 'commander';
import type { ApiObject } from '../../pkg/api/object';
import { typeKeys } from '../../pkg/storage/redis/keys';
import { BaselineFanout } from './baseline-fanout';
import { BaselineStore } from './baseline-store';
import { indexesOfModelFile } from './model-indexes';
import { PERSONS_TYPE } from './persons';

const program = new Command('baseline-server')
  .requiredOption('--listen <host:port>', 'address to serve on')
  .requiredOption('--redis <url>', 'the Redis the apiserver uses, without query parameters')
  .requiredOption('--key-prefix <prefix>', "the apiserver's key prefix")
  .requiredOption('--model <path>', 'the Model manifest whose indexes the write script maintains')
  .addOption(new Option('--watch-retention <n>', "the apiserver's --watch-retention").default('100000'))
  .parse();

const LIST_API_VERSION = 'example.com/v1alpha1';
const LIST_KIND = 'PersonList';

async function main(): Promise<void> {
  const opts = program.opts<{
    listen: string;
    redis: string;
    keyPrefix: string;
    model: string;
    watchRetention: string;
  }>();
  const store = await BaselineStore.open({
    redisUrl: opts.redis,
    keyPrefix: opts.keyPrefix,
    type: PERSONS_TYPE,
    indexes: indexesOfModelFile(opts.model),
    watchRetention: Number(opts.watchRetention),
  });
  const keys = typeKeys(opts.keyPrefix, PERSONS_TYPE);
  const fanout = new BaselineFanout(opts.redis, keys.stream, keys.revision);
  const server = createServer((req, res) => {
    const served = req.method === 'GET' && req.url === '/watch' ? fanout.add(res) : serve(store, req, res);
    served.catch((err: Error) => send(res, 500, JSON.stringify({ error: err.message })));
  });
  const at = opts.listen.lastIndexOf(':');
  server.listen(Number(opts.listen.slice(at + 1)), opts.listen.slice(0, at));
  process.once('SIGTERM', () => {
    fanout.close();
    server.close();
    server.closeAllConnections();
    void store.close().finally(() => process.exit(0));
  });
}

/** The baseline's routes: the first whose method and path match serves the request. */
const ROUTES: {
  method: string;
  matches: (url: string) => boolean;
  serve: (store: BaselineStore, url: string, req: IncomingMessage, res: ServerResponse) => Promise<void> | void;
}[] = [
  { method: 'GET', matches: (url) => url.startsWith('/objects/'), serve: getObject },
  { method: 'GET', matches: (url) => url.startsWith('/list'), serve: listPage },
  { method: 'POST', matches: (url) => url === '/objects', serve: createObject },
  { method: 'GET', matches: (url) => url === '/healthz', serve: (_s, _u, _q, res) => send(res, 200, '{"ok":true}') },
];

async function serve(store: BaselineStore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  const route = ROUTES.find((r) => r.method === req.method && r.matches(url));
  if (route === undefined) return send(res, 404, '{"error":"no such route"}');
  await route.serve(store, url, req, res);
}

async function getObject(store: BaselineStore, url: string, _req: IncomingMessage, res: ServerResponse): Promise<void> {
  const json = await store.objectJson(decodeURIComponent(url.slice('/objects/'.length)));
  return json === null ? send(res, 404, '{"error":"not found"}') : send(res, 200, json);
}

async function listPage(store: BaselineStore, url: string, _req: IncomingMessage, res: ServerResponse): Promise<void> {
  const limit = Number(new URL(url, 'http://baseline').searchParams.get('limit') ?? '20');
  return send(res, 200, await store.pageJson(LIST_API_VERSION, LIST_KIND, limit));
}

async function createObject(
  store: BaselineStore,
  _url: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const outcome = await store.create(JSON.parse(await readBody(req)) as ApiObject);
  return outcome.created ? send(res, 201, JSON.stringify(outcome.object)) : send(res, 409, '{"error":"exists"}');
}

function send(res: ServerResponse, code: number, json: string): void {
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
    req.on('error', reject);
  });
}

main().catch((err: Error) => {
  console.error(`baseline server failed: ${err.message}`);
  process.exit(1);
});
