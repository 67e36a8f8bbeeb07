import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { openStorage, type Storage } from '../../pkg/storage';
import { benchRedis, type BenchRedis } from '../support/redis-server';

/** Everything a benchmark run holds open: the Redis, svc's storage on it, and a plain client for the baselines. */
export interface BenchSession {
  server: BenchRedis;
  storage: Storage;
  /** A plain ioredis client on the same Redis: the baselines use it, and so do the layout checks. */
  redis: Redis;
  /** The key prefix of every key this run writes, e.g. `bench-3fa2c1d0`. */
  keyPrefix: string;
  /** Removes this run's keys, closes the connections and stops a private Redis. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Opens the Redis (see benchRedis), svc's Redis storage on it under a key
 * prefix of its own (`redis://…?keyPrefix=bench-<random>`), and a plain client.
 */
export async function openSession(): Promise<BenchSession> {
  const server = await benchRedis();
  const keyPrefix = `bench-${randomBytes(4).toString('hex')}`;
  let storage: Storage | undefined;
  let redis: Redis | undefined;
  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= (async () => {
      if (redis !== undefined) {
        await removeKeys(redis, `${keyPrefix}:*`).catch(() => undefined);
        redis.disconnect();
      }
      await storage?.close();
      await server.stop();
    })();
    return closed;
  };
  try {
    storage = await openStorage(withKeyPrefix(server.url, keyPrefix));
    redis = new Redis(server.url, { maxRetriesPerRequest: 0 });
    await redis.ping();
  } catch (err) {
    await close();
    throw err;
  }
  return { server, storage, redis, keyPrefix, close };
}

/** The storage URL: the Redis URL with `keyPrefix` set. */
function withKeyPrefix(redisUrl: string, keyPrefix: string): string {
  const url = new URL(redisUrl);
  url.searchParams.set('keyPrefix', keyPrefix);
  return url.href;
}

/** Unlinks every key matching `pattern` (SCAN, so a shared Redis is not blocked). */
async function removeKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    if (keys.length > 0) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
}
