/**
 * The Redis storage backend. Importing this module registers it for
 * `redis://host:port/db` and `rediss://` (TLS) URLs, and for Redis through
 * Sentinel (`redis+sentinel://h1:26379,h2:26379/<master name>[/<db>]`) or a
 * Redis Cluster (`redis+cluster://h1:7000,h2:7001`), with `rediss+…` for TLS
 * (./topology.ts). `?keyPrefix=` in the URL (or `StorageOptions.keyPrefix`)
 * prefixes every key, default `svc`; `?indexLayout=bucketed` (or
 * `StorageOptions.indexLayout`) keeps index sets in small buckets (ADR 0025);
 * `?ack=replica|aof` answers a write once a replica or the append-only file
 * has it (ADR 0034).
 *
 * @example const storage = await openStorage('redis://127.0.0.1:6379/0?keyPrefix=svc');
 */
import { registerBackend } from '../backends';
import type { StorageOptions } from '../interface';
import { AcknowledgedWrites, checkAckSupported } from './acknowledged-writes';
import { connectClient, redisCall, redisTarget, type RedisClient } from './connection';
import { RedisStorage, redisSettings } from './redis-storage';
import { defineScripts } from './scripts';

/**
 * Connections of their own that wait for acknowledgements (`ack=replica|aof`): so many writes wait at once.
 * 16 rather than 4 took `ack=replica` creates from 0.38× to 0.64× of `ack=primary` (`make drill`).
 */
const ACK_CONNECTIONS = 16;

/** Connects to the Redis a URL names and returns the storage over it. Unreachable Redis is Unavailable. */
export async function openRedisStorage(
  url: URL,
  options: StorageOptions = {},
  hosts: readonly string[] = [url.host],
): Promise<RedisStorage> {
  const target = redisTarget(url, options, hosts);
  const settings = redisSettings(target, options);
  const opened: RedisClient[] = [];
  try {
    const client = defineScripts(await connectClient(target.topology, 'svc-storage'), settings.indexLayout);
    opened.push(client);
    if (target.ack === 'aof') {
      checkAckSupported('aof', await redisCall('open', () => client.info('server', 'persistence')));
    }
    const waiting = [];
    for (let i = 0; target.ack !== 'primary' && i < ACK_CONNECTIONS; i++) {
      const connection = defineScripts(await connectClient(target.topology, 'svc-storage-ack'), settings.indexLayout);
      opened.push(connection);
      waiting.push(connection);
    }
    const writes = new AcknowledgedWrites(
      target.ack,
      settings.ackTimeoutMs,
      target.ack === 'primary' ? [client] : waiting,
    );
    return new RedisStorage(client, settings, writes);
  } catch (err) {
    for (const client of opened) client.disconnect();
    throw err;
  }
}

for (const scheme of ['redis', 'rediss', 'redis+sentinel', 'rediss+sentinel', 'redis+cluster', 'rediss+cluster']) {
  registerBackend(scheme, openRedisStorage);
}

export { RedisStorage } from './redis-storage';
export { typeKeys, type TypeKeys } from './keys';
