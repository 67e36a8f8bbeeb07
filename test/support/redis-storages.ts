import Redis from 'ioredis';
import '../../pkg/storage/redis';
import { openStorage } from '../../pkg/storage/backends';
import type { Storage, StorageOptions } from '../../pkg/storage/interface';
import { sharedRedisUrl } from './redis';

/** A suite's plain Redis client, and the Redis storages its tests open. */
export interface RedisStorages {
  /** A client of the shared Redis, for looking beneath the storage interface. */
  redis: Redis;
  /** Opens a storage on the shared Redis; it is closed after the test. */
  open(options: StorageOptions): Promise<Storage>;
}

/**
 * Registers a suite's hooks: one Redis client for the suite, and every
 * storage a test opens closed after that test.
 *
 * @example const suite = useRedisStorages(); … const storage = await suite.open({ keyPrefix });
 */
export function useRedisStorages(): RedisStorages {
  const opened: Storage[] = [];
  const suite = {
    async open(options: StorageOptions): Promise<Storage> {
      const storage = await openStorage(sharedRedisUrl(), options);
      opened.push(storage);
      return storage;
    },
  } as RedisStorages;
  beforeAll(() => {
    suite.redis = new Redis(sharedRedisUrl());
  });
  afterAll(() => suite.redis.disconnect());
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((storage) => storage.close()));
  });
  return suite;
}
