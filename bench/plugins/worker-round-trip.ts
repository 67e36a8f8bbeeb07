#!/usr/bin/env node
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PluginWorker, type PluginWorkerHost } from '../../pkg/plugin/plugin-worker';
import type { ForwardedRequest } from '../../pkg/plugin/protocol';
import { runBench } from '../support/run-bench';

/**
 * The thread crossings of a plugin route alone: a PluginWorker and its worker thread, no HTTP, no store. Requests
 * go straight to `PluginWorker.request` (32 in flight) for a route answering a small object (`ping`, two crossings)
 * and one answering an object read through `ctx.client` (`read`, four; the host answers the read from memory).
 * Prints the process's CPU per request (every thread, user and system).
 *
 * @example npm run build && node dist/bench/plugins/worker-round-trip.js 50000
 */
const REQUESTS = Number(process.argv[2] ?? 50_000);
const IN_FLIGHT = 32;
const ITEM = {
  apiVersion: 'bench.example.com/v1alpha1',
  kind: 'Item',
  metadata: { name: 'item-42', uid: 'b6f6a1c2-1d5e-4b8e-9a77-3a1c2d4e5f60', resourceVersion: '12345' },
  spec: { name: 'Item number 42', tags: ['tag-2', 'tag-9', 'tag-15'], note: 'an object of the benchmark plugin' },
};
const INDEX_JS = `module.exports = { async start(ctx) {
  const items = { group: 'bench.example.com', version: 'v1alpha1', plural: 'items' };
  ctx.routes.get('/apis/bench.example.com/v1alpha1/pings/{name}', (req) => ({ pong: true, name: req.params.name }));
  ctx.routes.get('/apis/bench.example.com/v1alpha1/reads/{name}', (req) => ctx.client.get(items, req.params.name));
} };`;
const ROUTES = { ping: 0, read: 1 };
const HEADERS: [string, string][] = [
  ['host', '127.0.0.1'],
  ['accept', '*/*'],
  ['user-agent', 'bench'],
];

runBench('plugin worker round trip', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-round-trip-'));
  try {
    writeFileSync(join(dir, 'index.js'), INDEX_JS);
    const host: PluginWorkerHost = {
      log: () => undefined,
      registerModel: async () => undefined,
      registerRoute: () => undefined,
      warn: () => undefined,
      crashed: (message) => process.stderr.write(`the worker crashed: ${message}\n`),
      // As the apiserver's store would: a fresh object per read.
      readApi: async () => ({ object: structuredClone(ITEM) }),
    };
    const api = { server: 'http://127.0.0.1:9', token: 'unused', inProcess: true };
    const data = { name: 'bench', version: '1.0.0', settings: {}, main: join(dir, 'index.js'), api };
    const worker = new PluginWorker(data, host, { startTimeoutMs: 30_000, memoryMb: 256 });
    await worker.start();
    for (const [name, routeId] of Object.entries(ROUTES)) {
      await drive(worker, routeId, REQUESTS / 5);
      const before = process.cpuUsage();
      await drive(worker, routeId, REQUESTS);
      const used = process.cpuUsage(before);
      const perRequest = (micros: number) => (micros / REQUESTS).toFixed(1);
      process.stdout.write(
        `${name}: ${perRequest(used.user + used.system)} µs CPU per request ` +
          `(user ${perRequest(used.user)}, system ${perRequest(used.system)}), ${REQUESTS} requests\n`,
      );
    }
    await worker.terminate();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Sends `count` requests to route `routeId`, `IN_FLIGHT` at a time; throws on any answer but a 200. */
async function drive(worker: PluginWorker, routeId: number, count: number): Promise<void> {
  let sent = 0;
  const caller = { name: 'admin', groups: ['system:masters'] };
  const lane = async () => {
    while (sent < count) {
      const name = `item-${sent++ % 2000}`;
      const request: ForwardedRequest = {
        routeId,
        method: 'GET',
        url: `/apis/bench.example.com/v1alpha1/x/${name}`,
        headers: JSON.stringify(HEADERS),
        params: { name },
        user: caller,
      };
      const answer = await worker.request(request, 30_000, undefined, caller);
      if (answer.status !== 200) throw new Error(`route ${routeId} answered ${answer.status}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
}
