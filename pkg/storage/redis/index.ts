/**
 * The Redis storage backend. Importing this module registers it for
 * `redis://host:port/db` and `rediss://` (TLS) URLs; `?keyPrefix=` in the URL
 * (or `StorageOptions.keyPrefix`) prefixes every key, default `svc`;
 * `?indexLayout=bucketed` (or `StorageOptions.indexLayout`) keeps index sets
 * in small buckets (ADR 0025).
 *
 * @example const storage = await openStorage('redis://127.0.0.1:6379/0?keyPrefix=svc');
 */
import { registerBackend } from '../backends';
import type { StorageOptions } from '../interface';
import { connectClient, redisTarget } from './connection';
import { RedisStorage, redisSettings } from './redis-storage';
import { defineScripts } from './scripts';

/** Connects to the Redis a URL names and returns the storage over it. Unreachable Redis is Unavailable. */
export async function openRedisStorage(url: URL, options: StorageOptions = {}): Promise<RedisStorage> {
  const target = redisTarget(url, options);
  const settings = redisSettings(target, options);
  const client = await connectClient(target.url, 'svc-storage');
  return new RedisStorage(defineScripts(client, settings.indexLayout), settings);
}

registerBackend('redis', openRedisStorage);
registerBackend('rediss', openRedisStorage);

export { RedisStorage } from './redis-storage';
export { typeKeys, type TypeKeys } from './keys';
