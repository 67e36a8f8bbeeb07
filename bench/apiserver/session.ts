import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { benchRedis, type BenchRedis } from '../support/redis-server';
import { startApiserver, startBaseline, type ServerUnderTest } from './servers';

/** Everything one benchmark run holds open. */
export interface ApiBenchSession {
  redis: BenchRedis;
  /** A plain client on the same Redis (machine info, clean-up). */
  client: Redis;
  /** The Redis server's process id when it runs on this machine (CPU accounting), else undefined. */
  redisPid?: number;
  /** The key prefix of every key this run writes, e.g. `bench-3fa2c1d0`. */
  keyPrefix: string;
  apiserver: ServerUnderTest;
  baseline: ServerUnderTest;
  /** Where the servers' logs go; removed by `close()` unless the run failed. */
  logDir: string;
  /** Stops both servers, removes this run's keys, stops a private Redis. Safe to call twice. */
  close(options?: { keepLogs?: boolean }): Promise<void>;
}

/**
 * Opens the Redis (REDIS_URL or a private redis-server), then starts the
 * apiserver and the baseline server as processes of their own on the same
 * data, under a fresh key prefix; with `profileDir`, both write CPU profiles there.
 */
export async function openApiBenchSession(profileDir?: string): Promise<ApiBenchSession> {
  const redis = await benchRedis();
  const keyPrefix = `bench-${randomBytes(4).toString('hex')}`;
  const logDir = mkdtempSync(join(tmpdir(), 'svc-bench-apiserver-'));
  const client = new Redis(redis.url, { maxRetriesPerRequest: 0 });
  const servers: ServerUnderTest[] = [];
  let closed: Promise<void> | undefined;
  const close = ({ keepLogs = false } = {}) => {
    closed ??= (async () => {
      for (const server of servers) await server.process.stop();
      await removeKeys(client, `${keyPrefix}:*`).catch(() => undefined);
      client.disconnect();
      await redis.stop();
      if (keepLogs) process.stderr.write(`server logs kept in ${logDir}\n`);
      else rmSync(logDir, { recursive: true, force: true });
    })();
    return closed;
  };
  try {
    const redisPid = await localPid(client, redis.url);
    const target = { redisUrl: redis.url, keyPrefix };
    const apiserver = await startApiserver(target, { logDir, profileDir });
    servers.push(apiserver);
    const baseline = await startBaseline(target, { logDir, profileDir });
    servers.push(baseline);
    return { redis, client, redisPid, keyPrefix, apiserver, baseline, logDir, close };
  } catch (err) {
    await close({ keepLogs: true });
    throw err;
  }
}

/** Redis's process id from INFO when it listens on this machine's loopback; otherwise its CPU cannot be read here. */
export async function localPid(client: Redis, url: string): Promise<number | undefined> {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) return undefined;
  const pid = /^process_id:(\d+)/m.exec(await client.info('server'))?.[1];
  return pid === undefined ? undefined : Number(pid);
}

/** Unlinks every key matching `pattern` (SCAN, so a shared Redis is not blocked). */
export async function removeKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    if (keys.length > 0) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
}
