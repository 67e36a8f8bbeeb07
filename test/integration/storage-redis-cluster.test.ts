import '../../pkg/storage/redis';
import { openStorage } from '../../pkg/storage/backends';
import type { Storage } from '../../pkg/storage/interface';
import { TEST_INDEXES, widget } from '../../pkg/storage/testing/fixtures';
import { runStorageConformance } from '../../pkg/storage/testing/suite';
import { WatchReader } from '../../pkg/storage/testing/watch-reader';
import { redisCli, startRedisCluster, type RedisClusterSet } from '../../pkg/util/redis-topologies';
import { uniqueKeyPrefix } from '../support/redis';

// One 3-master Redis Cluster for the file: the whole conformance suite over it, then what the keys look like on
// the shards (every key of a type in one slot, types on several shards) and a watch of types on different shards.
let cluster: RedisClusterSet;

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3 });
}, 60_000);
afterAll(() => cluster?.destroy());

runStorageConformance('redis cluster', (options) =>
  openStorage(`${cluster.url}?keyPrefix=${uniqueKeyPrefix()}`, options),
);

const TYPES = Array.from({ length: 8 }, (_, i) => `kind${i}.example.com`);

/**
 * The Cluster slot of a key, as Redis computes it (CRC16/XMODEM of the hash tag, or of the whole key without one,
 * modulo 16384): worked out here rather than asked of a node per key, whose error reply redis-cli would print as if
 * it were an answer on a loaded machine. One key is checked against CLUSTER KEYSLOT below.
 */
function keySlot(key: string): number {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  const hashed = close > open + 1 ? key.slice(open + 1, close) : key;
  let crc = 0;
  for (const byte of Buffer.from(hashed)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}

/** Every key on one node under `prefix`, with its slot. */
async function keysOn(port: number, prefix: string): Promise<{ key: string; slot: number }[]> {
  const keys = (await redisCli(port, '--scan', '--pattern', `${prefix}:*`)).split('\n').filter((k) => k !== '');
  return keys.map((key) => ({ key, slot: keySlot(key) }));
}

/** For every type under `prefix`: the slots and the masters its keys are on. */
async function whereTypesAre(prefix: string) {
  const slotsOfType = new Map<string, Set<number>>();
  const nodesOfType = new Map<string, Set<number>>();
  for (const node of cluster.servers.slice(0, 3)) {
    for (const { key, slot } of await keysOn(node.port, prefix)) {
      const type = /\{([^}]*)\}/.exec(key)?.[1] ?? '';
      slotsOfType.set(type, (slotsOfType.get(type) ?? new Set()).add(slot));
      nodesOfType.set(type, (nodesOfType.get(type) ?? new Set()).add(node.port));
    }
  }
  return { slotsOfType, nodesOfType };
}

describe('the key layout on a Redis Cluster', () => {
  const opened: Storage[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });

  it('keeps every key of a type in one slot and spreads types over the shards', async () => {
    const keyPrefix = uniqueKeyPrefix('layout');
    const storage = await openStorage(`${cluster.url}?keyPrefix=${keyPrefix}&indexLayout=bucketed`);
    opened.push(storage);
    for (const type of TYPES) {
      await storage.defineType(type, TEST_INDEXES);
      for (let i = 0; i < 3; i++) await storage.create(type, widget(`w${i}`, { color: 'red', rank: String(i) }));
      await storage.delete(type, 'w0');
    }
    const { slotsOfType, nodesOfType } = await whereTypesAre(keyPrefix);
    const sample = `${keyPrefix}:{${TYPES[0]}}:sample`;
    expect(keySlot(sample)).toBe(Number(await redisCli(cluster.servers[0].port, 'CLUSTER', 'KEYSLOT', sample)));
    expect([...slotsOfType.keys()].sort()).toEqual([...TYPES].sort());
    for (const type of TYPES) {
      expect(slotsOfType.get(type)?.size).toBe(1);
      expect(nodesOfType.get(type)?.size).toBe(1);
    }
    const shardsUsed = new Set([...nodesOfType.values()].map((ports) => [...ports][0]));
    expect(shardsUsed.size).toBeGreaterThan(1);
  });

  it('serves watches of types on every shard, each in order', async () => {
    const storage = await openStorage(`${cluster.url}?keyPrefix=${uniqueKeyPrefix('watch')}`);
    opened.push(storage);
    for (const type of TYPES) await storage.defineType(type, TEST_INDEXES);
    const readers = TYPES.map((type) => new WatchReader(storage.watch(type)));
    try {
      for (let round = 0; round < 2; round++) {
        for (const type of TYPES) await storage.create(type, widget(`w${round}`, { color: 'blue' }));
      }
      for (const reader of readers) {
        const events = await reader.take(2);
        expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual([
          ['ADDED', 'w0'],
          ['ADDED', 'w1'],
        ]);
      }
    } finally {
      for (const reader of readers) reader.stop();
    }
  });
});
