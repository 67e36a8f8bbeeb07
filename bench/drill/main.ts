/**
 * `make drill`: the failover drill and the topology figures (see bench/README.md).
 *
 * 1. For `ack=replica`, then `ack=primary`: a primary, two replicas and three
 *    Sentinels; then `ack=replica` on a 3-master Cluster with two replicas per
 *    master (its type's master killed); three storage clients (as three apiservers would hold) with
 *    read-modify-write writers and watchers; the primary killed with SIGKILL
 *    under load. Prints requests failed and for how long, acknowledged writes
 *    lost, events skipped, repeated or lost on every watcher, time to the new primary.
 * 2. Create throughput with `ack=replica` against `ack=primary` on one set.
 * 3. Create throughput of a 3-type workload on one Redis against a 3-shard Cluster.
 *
 * @example node dist/bench/drill/main.js --seconds 5
 */
import '../../pkg/storage/redis';
import { openStorage } from '../../pkg/storage/backends';
import type { ResourceType, Storage } from '../../pkg/storage/interface';
import { typeKeys } from '../../pkg/storage/redis';
import { startRedisServer } from '../../pkg/util/redis-server';
import { redisCli, startRedisCluster, startSentinelSet } from '../../pkg/util/redis-topologies';
import { waitFor } from '../../pkg/util/wait-for';
import { summarizeLatencies } from '../support/latency-stats';
import { withProgress } from '../support/progress';
import { runBench } from '../support/run-bench';
import { CounterWriters, RecordingWatcher, verifyFailover, type FailoverVerdict } from './failover-workload';
import { loadFor } from './load-for';
import { survivingStream } from './surviving-stream';

const TYPE: ResourceType = 'counters.drill.svc.run';
const CLIENTS = 3;
const COUNTERS_PER_CLIENT = 8;
const WATCHERS_PER_CLIENT = 2;

/** `--seconds N`: how long each load runs before and after the kill, and each throughput run (default 5). */
function seconds(argv: string[]): number {
  const at = argv.indexOf('--seconds');
  const value = at < 0 ? 5 : Number(argv[at + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error('--seconds takes a positive number');
  return value;
}

/** A topology under the drill: its store URL, and how to kill the primary of the drill's type and see a new one. */
interface DrillTopology {
  label: string;
  url: string;
  /** Kills (SIGKILL) the primary that holds the drill's type; resolves to its port. */
  killPrimary(): Promise<number>;
  /** The port of the primary that holds the drill's type now. */
  primaryPort(): Promise<number>;
  destroy(): Promise<void>;
}

async function sentinelTopology(): Promise<DrillTopology> {
  const set = await startSentinelSet({ replicas: 2, sentinels: 3, downAfterMs: 1_000 });
  return {
    label: 'primary + 2 replicas + 3 Sentinels',
    url: set.url,
    async killPrimary() {
      await set.servers[0].kill('SIGKILL');
      return set.servers[0].port;
    },
    primaryPort: () => set.primaryPort(),
    destroy: () => set.destroy(),
  };
}

async function clusterTopology(keyPrefix: string): Promise<DrillTopology> {
  const cluster = await startRedisCluster({ masters: 3, replicas: 2 });
  const survivor = () => cluster.servers.find((s) => s.running) ?? cluster.servers[0];
  const primaryPort = async () => {
    const slot = Number(await redisCli(survivor().port, 'CLUSTER', 'KEYSLOT', typeKeys(keyPrefix, TYPE).revision));
    return masterOfSlot(await redisCli(survivor().port, 'CLUSTER', 'NODES'), slot);
  };
  return {
    label: '3 masters with 2 replicas each (Redis Cluster)',
    url: cluster.url,
    async killPrimary() {
      const port = await primaryPort();
      await cluster.servers.find((s) => s.port === port)?.kill('SIGKILL');
      return port;
    },
    primaryPort,
    destroy: () => cluster.destroy(),
  };
}

/** The port of the master `CLUSTER NODES` says serves `slot` (0 when none is up). */
function masterOfSlot(nodes: string, slot: number): number {
  for (const line of nodes.split('\n')) {
    const [, address, flags, , , , , , ...ranges] = line.split(' ');
    if (!flags?.includes('master') || flags.includes('fail')) continue;
    for (const range of ranges) {
      const [from, to = from] = range.split('-').map(Number);
      if (slot >= from && slot <= to) return Number(address.split('@')[0].split(':').pop());
    }
  }
  return 0;
}

async function failoverDrill(topology: DrillTopology, ack: 'replica' | 'primary', keyPrefix: string, loadMs: number) {
  console.log(`\n== failover drill, ack=${ack}: ${topology.label}, ${CLIENTS} clients ==`);
  const storages: Storage[] = [];
  try {
    for (let i = 0; i < CLIENTS; i++) {
      storages.push(await openStorage(`${topology.url}?ack=${ack}&keyPrefix=${keyPrefix}`, { ackTimeoutMs: 5_000 }));
      await storages[i].defineType(TYPE, []);
    }
    const writers = storages.map(
      (storage, i) =>
        new CounterWriters(
          storage,
          TYPE,
          Array.from({ length: COUNTERS_PER_CLIENT }, (_, c) => `c${i}-${c}`),
        ),
    );
    await Promise.all(writers.map((w) => w.start()));
    const watchers = storages.flatMap((storage) =>
      Array.from({ length: WATCHERS_PER_CLIENT }, () => new RecordingWatcher(storage, TYPE, 0)),
    );
    await loadFor('load before the kill', loadMs);
    const killedAt = Date.now();
    const killed = await topology.killPrimary();
    const newPrimary = await waitFor(
      async () => {
        const port = await topology.primaryPort();
        return port !== killed && port !== 0 ? port : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 50, what: 'a replica to be promoted' },
    );
    const promotedMs = Date.now() - killedAt;
    await loadFor('load after the kill', loadMs);
    await Promise.all(writers.map((w) => w.stop()));
    const final = Number(await storages[0].currentRevision(TYPE));
    await waitFor(() => watchers.every((w) => w.position >= final), { timeoutMs: 30_000, what: 'the watchers' });
    await Promise.all(watchers.map((w) => w.stop()));
    const acknowledged = writers.flatMap((w) => w.acknowledged);
    const verdict = verifyFailover(acknowledged, watchers, await survivingStream(newPrimary, keyPrefix, TYPE));
    printVerdict(verdict, promotedMs, writers);
  } finally {
    await Promise.all(storages.map((s) => s.close()));
  }
}

function printVerdict(verdict: FailoverVerdict, promotedMs: number, writers: CounterWriters[]): void {
  const failures = writers.flatMap((w) => w.failures);
  const outages = summarizeLatencies(writers.flatMap((w) => w.outages));
  console.log(`time to the new primary (down-after / node timeout 1 s): ${promotedMs} ms`);
  console.log(`writes acknowledged: ${verdict.acknowledged}; failed with 503: ${failures.length}`);
  console.log(
    `writers without a successful write: p50 ${outages.p50} ms, max ${outages.max} ms (${outages.count} writers)`,
  );
  console.log(`acknowledged writes lost: ${verdict.lost.length}`);
  console.log(
    `watch events skipped: ${verdict.skipped}, repeated: ${verdict.repeated}, lost and not followed by 410: ${verdict.wrongEvents}${verdict.breaks.map((b) => `\n  ${b}`).join('')}`,
  );
  console.log(
    `watches ended with 410 Expired: ${verdict.expiredWatches} (events they had been handed that Redis lost: ${verdict.retractedEvents})`,
  );
}

/** Runs the drill with `ack` on a fresh topology, destroyed afterwards. */
async function drillOn(start: (keyPrefix: string) => Promise<DrillTopology>, ack: 'replica' | 'primary', ms: number) {
  const keyPrefix = `drill-${ack}`;
  const topology = await start(keyPrefix);
  try {
    await failoverDrill(topology, ack, keyPrefix, ms);
  } finally {
    await topology.destroy();
  }
}

/** Creates per second over `ms` by `concurrency` concurrent creators spread over `types`. */
async function createRate(storage: Storage, types: ResourceType[], ms: number, concurrency: number, label: string) {
  for (const type of types) await storage.defineType(type, []);
  let created = 0;
  const end = Date.now() + ms;
  const start = Date.now();
  await withProgress(label, ms, async (counter) => {
    await Promise.all(
      Array.from({ length: concurrency }, async (_, worker) => {
        const type = types[worker % types.length];
        for (let i = 0; Date.now() < end; i++) {
          await storage.create(type, {
            apiVersion: 'v1',
            kind: 'Item',
            metadata: { name: `w${worker}-${i}` },
            spec: {},
          });
          created++;
          counter.done = Math.min(ms, Date.now() - start);
        }
      }),
    );
  });
  return created / ((Date.now() - start) / 1000);
}

async function ackThroughput(ms: number): Promise<void> {
  console.log('\n== create throughput by ack (primary + 2 replicas + 3 Sentinels, 32 concurrent creators) ==');
  const set = await startSentinelSet({ replicas: 2, sentinels: 3 });
  try {
    const rates: Record<string, number> = {};
    for (const ack of ['primary', 'replica'] as const) {
      const storage = await openStorage(`${set.url}?ack=${ack}&keyPrefix=rate-${ack}`);
      try {
        rates[ack] = await createRate(storage, [TYPE], ms, 32, `creates, ack=${ack}`);
      } finally {
        await storage.close();
      }
      console.log(`ack=${ack}: ${Math.round(rates[ack])} creates/s`);
    }
    console.log(`ack=replica / ack=primary: ${(rates.replica / rates.primary).toFixed(2)}`);
  } finally {
    await set.destroy();
  }
}

async function shardThroughput(ms: number): Promise<void> {
  console.log('\n== create throughput of 3 types: one Redis against a 3-master Cluster (48 concurrent creators) ==');
  const types = ['alphas.drill.svc.run', 'betas.drill.svc.run', 'gammas.drill.svc.run'];
  const single = await startRedisServer();
  const cluster = await startRedisCluster({ masters: 3 });
  try {
    const rates: number[] = [];
    for (const [label, url] of [
      ['1 shard', `${single.url}?keyPrefix=shards`],
      ['3 shards', `${cluster.url}?keyPrefix=shards`],
    ] as const) {
      const storage = await openStorage(url);
      try {
        rates.push(await createRate(storage, types, ms, 48, `creates, ${label}`));
      } finally {
        await storage.close();
      }
      console.log(`${label}: ${Math.round(rates[rates.length - 1])} creates/s`);
    }
    console.log(`3 shards / 1 shard: ${(rates[1] / rates[0]).toFixed(2)}`);
  } finally {
    await cluster.destroy();
    await single.destroy();
  }
}

runBench('drill', async () => {
  const ms = seconds(process.argv.slice(2)) * 1000;
  await drillOn(sentinelTopology, 'replica', ms);
  await drillOn(sentinelTopology, 'primary', ms);
  await drillOn(clusterTopology, 'replica', ms);
  await ackThroughput(ms);
  await shardThroughput(ms);
});
