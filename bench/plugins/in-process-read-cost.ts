#!/usr/bin/env node
import type { ObjectRead } from '../../pkg/api/object-read';
import { ApiServer } from '../../pkg/apiserver/server';
import { SchemeManager } from '../../pkg/registry/scheme';
import { openStorage } from '../../pkg/storage';
import { createLogger } from '../../pkg/util/log';
import { startRedisServer } from '../../pkg/util/redis-server';
import { runBench } from '../support/run-bench';

/**
 * The main-thread side of a plugin's in-process get alone: `ApiServer.readInProcess` (authorisation, the store read
 * from a private Redis, metrics) and the answer's JSON text as it is posted to the worker, 32 in flight, no HTTP, no
 * worker. Prints the process's CPU per read (user and system, every thread) and the reads per second.
 *
 * @example npm run build && node dist/bench/plugins/in-process-read-cost.js 50000
 */
const READS = Number(process.argv[2] ?? 50_000);
const OBJECTS = 2000;
const IN_FLIGHT = 32;
const ITEMS = { group: 'bench.example.com', version: 'v1alpha1', resource: 'items' };

runBench('in-process read cost', async () => {
  const redis = await startRedisServer();
  try {
    const log = createLogger('warn', 'json');
    const storage = await openStorage(redis.url, { keyPrefix: 'read-cost' });
    const schemes = new SchemeManager(storage, log);
    const { store } = await schemes.register({ ...ITEMS, kind: 'Item', singular: 'item', plural: ITEMS.resource });
    const registered = schemes.lookup(ITEMS.group, ITEMS.version, ITEMS.resource);
    while (registered && !schemes.isReady(registered)) await new Promise((resolve) => setTimeout(resolve, 10));
    for (let i = 0; i < OBJECTS; i++) await store.create(item(i));
    const server = new ApiServer({
      storage,
      schemes,
      authenticators: [],
      authorizer: { authorize: async () => ({ decision: 'Allow', reason: 'bench' }) },
      log,
    });
    const caller = { name: 'system:plugin:bench', groups: ['system:authenticated'] };
    let sent = 0;
    const drive = async (count: number) => {
      sent = 0;
      const lane = async () => {
        while (sent < count) {
          const read: ObjectRead = { verb: 'get', ...ITEMS, name: `item-${sent++ % OBJECTS}` };
          const answer = await server.readInProcess(read, caller);
          // As the host posts it to the worker: the stored text put in as it is, or the answer stringified.
          const stored = (answer as { objectJson?: string }).objectJson;
          const text = stored === undefined ? JSON.stringify(answer) : `{"object":${stored}}`;
          if (!text.startsWith('{"object":')) throw new Error(`unexpected answer ${text.slice(0, 200)}`);
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
    };
    await drive(READS / 5);
    const before = process.cpuUsage();
    const started = performance.now();
    await drive(READS);
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(before);
    const per = (micros: number) => (micros / READS).toFixed(1);
    process.stdout.write(
      `in-process get: ${per(used.user + used.system)} µs CPU per read (user ${per(used.user)}, system ` +
        `${per(used.system)}), ${Math.round(READS / seconds)} reads/s, ${READS} reads\n`,
    );
    await storage.close();
  } finally {
    await redis.destroy();
  }
});

function item(i: number) {
  return {
    apiVersion: `${ITEMS.group}/${ITEMS.version}`,
    kind: 'Item',
    metadata: { name: `item-${i}`, labels: { bench: 'yes' } },
    spec: { name: `Item number ${i}`, tags: [`tag-${i % 7}`, `tag-${i % 11}`], note: 'an object of the benchmark' },
  };
}
