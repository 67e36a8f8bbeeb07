import '../../pkg/storage/redis';
import { openStorage } from '../../pkg/storage/backends';
import { isStorageError } from '../../pkg/storage/errors';
import type { Storage } from '../../pkg/storage/interface';
import { TEST_INDEXES, WIDGETS, widget } from '../../pkg/storage/testing/fixtures';
import { runStorageConformance } from '../../pkg/storage/testing/suite';
import { redisCli, startSentinelSet, type SentinelSet } from '../../pkg/util/redis-topologies';
import { uniqueKeyPrefix } from '../support/redis';

// One primary, one replica and three Sentinels for the file: the whole conformance suite through the Sentinels
// with writes acknowledged by the replica, then what ack=replica and ack=aof do when they cannot be met.
let set: SentinelSet;

beforeAll(async () => {
  set = await startSentinelSet({ replicas: 1, sentinels: 3 });
}, 60_000);
afterAll(() => set?.destroy());

runStorageConformance('redis through Sentinel, ack=replica', (options) =>
  openStorage(`${set.url}?ack=replica&keyPrefix=${uniqueKeyPrefix()}`, options),
);

describe('acknowledged writes through Sentinel', () => {
  const opened: Storage[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });

  async function open(query: string, ackTimeoutMs = 300): Promise<Storage> {
    const storage = await openStorage(`${set.url}?${query}&keyPrefix=${uniqueKeyPrefix('ack')}`, { ackTimeoutMs });
    opened.push(storage);
    await storage.defineType(WIDGETS, TEST_INDEXES);
    return storage;
  }

  it('finds the primary through the Sentinels and writes what the replica then has', async () => {
    const storage = await open('ack=replica');
    const created = await storage.create(WIDGETS, widget('a', { color: 'red' }));
    expect(await storage.get(WIDGETS, 'a')).toEqual(created);
    const replica = set.servers[1];
    const keys = (await redisCli(replica.port, '--scan', '--pattern', '*widgets*objects')).split('\n');
    expect(keys.filter((k) => k !== '').length).toBeGreaterThan(0);
  });

  it('answers a write no replica acknowledges in time with Unavailable, outcome unknown; refusals as before', async () => {
    const storage = await open('ack=replica');
    await storage.create(WIDGETS, widget('kept', { color: 'red' }));
    const replica = set.servers[1];
    // A stopped replica acknowledges nothing; the primary still answers everything else.
    replica.signal('SIGSTOP');
    try {
      const error = await storage.create(WIDGETS, widget('unknown', { color: 'red' })).catch((err: unknown) => err);
      expect(isStorageError(error, 'Unavailable')).toBe(true);
      expect((error as Error).message).toMatch(
        /no replica acknowledged it within 0.3 s; the outcome of the write is unknown/,
      );
      const conflict = await storage.create(WIDGETS, widget('kept', { color: 'red' })).catch((err: unknown) => err);
      expect(isStorageError(conflict, 'AlreadyExists')).toBe(true);
    } finally {
      replica.signal('SIGCONT');
    }
    // The write did happen on the primary: its outcome was unknown, not failed.
    expect((await storage.get(WIDGETS, 'unknown')).metadata.name).toBe('unknown');
  });

  it('refuses ack=aof on Redis before 7.2 at start, saying why', async () => {
    const error = await openStorage(`${set.url}?ack=aof`).catch((err: unknown) => err);
    expect((error as Error).message).toMatch(/ack=aof needs Redis 7.2 or later \(WAITAOF\), and this Redis is 7\.0/);
  });

  it('refuses an unknown ack and a Sentinel URL without a master name', async () => {
    await expect(openStorage(`${set.url}?ack=disk`)).rejects.toThrow('ack "disk" must be primary or replica or aof');
    const hosts = set.sentinels.map((s) => `127.0.0.1:${s.port}`).join(',');
    await expect(openStorage(`redis+sentinel://${hosts}`)).rejects.toThrow(/ends with \/<master name>/);
  });
});
