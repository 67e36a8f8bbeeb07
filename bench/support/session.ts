import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { startRedisServer } from '../../pkg/util/redis-server';
import { startNodeProcess, type NodeProcess, type NodeProcessSpec } from './node-process';
import { closeOnSignal } from './signals';

/** The Redis a benchmark runs against. */
export interface BenchRedis {
  /** e.g. `redis://127.0.0.1:40123/0`. */
  url: string;
  /** Where it comes from, for the report: `REDIS_URL` or `private redis-server (…)`. */
  origin: string;
  /** Stops the private server and removes its directory; nothing for a `REDIS_URL` one. */
  stop(): Promise<void>;
}

/**
 * What every benchmark run holds open: its Redis, a plain client on it, a key
 * prefix of its own, a directory for logs and scratch files, and the
 * processes it started. `close()` undoes all of it in reverse order.
 */
export interface BenchSession {
  redis: BenchRedis;
  /** A plain client on the same Redis (machine info, baselines, clean-up). */
  client: Redis;
  /** The Redis server's process id when it runs on this machine (CPU accounting), else undefined. */
  redisPid?: number;
  /** The key prefix of every key this run writes, e.g. `bench-3fa2c1d0`. */
  keyPrefix: string;
  /** The storage URL of this run: the Redis URL with `keyPrefix` set (`openStorage`, the apiserver's `--store`). */
  storeUrl: string;
  /** Where the processes' logs and scratch files go; removed by `close()` unless it keeps the logs. */
  dir: string;
  /** Starts a Node process with its log as `<dir>/<name>.log`; `close()` stops it. */
  startProcess(name: string, spec: Omit<NodeProcessSpec, 'logFile'>): Promise<NodeProcess>;
  /** Runs `closer` on `close()`, before the processes stop (last added, first run). */
  onClose(closer: () => unknown): void;
  /** Runs the closers, stops the processes, removes this run's keys, stops a private Redis. Safe to call twice. */
  close(options?: { keepLogs?: boolean }): Promise<void>;
}

/**
 * The Redis to benchmark against: `REDIS_URL` when it is set, else a private
 * `redis-server` (pkg/util's launcher) on a free port, without persistence.
 *
 * @example const redis = await benchRedis(); try { … } finally { await redis.stop(); }
 */
export async function benchRedis(): Promise<BenchRedis> {
  const external = process.env.REDIS_URL;
  if (external) return { url: external, origin: 'REDIS_URL', stop: async () => undefined };
  const server = await startRedisServer();
  return {
    url: server.url,
    origin: `private redis-server on port ${server.port}, no persistence`,
    stop: server.destroy,
  };
}

/**
 * Opens a session (see BenchSession) for the benchmark `name`, whose
 * directory is `svc-bench-<name>-…` in the system's temporary directory.
 */
export async function openBenchSession(name: string): Promise<BenchSession> {
  const redis = await benchRedis();
  const keyPrefix = `bench-${randomBytes(4).toString('hex')}`;
  const dir = mkdtempSync(join(tmpdir(), `svc-bench-${name}-`));
  const client = new Redis(redis.url, { maxRetriesPerRequest: 0 });
  const processes: NodeProcess[] = [];
  const closers: (() => unknown)[] = [];
  let closed: Promise<void> | undefined;
  const close = ({ keepLogs = false } = {}) => {
    closed ??= (async () => {
      for (const closer of closers.reverse()) await closer();
      for (const child of processes.reverse()) await child.stop();
      await removeKeys(client, `${keyPrefix}:*`).catch(() => undefined);
      client.disconnect();
      await redis.stop();
      if (keepLogs) process.stderr.write(`logs kept in ${dir}\n`);
      else rmSync(dir, { recursive: true, force: true });
    })();
    return closed;
  };
  try {
    return {
      redis,
      client,
      redisPid: await localPid(client, redis.url),
      keyPrefix,
      storeUrl: withKeyPrefix(redis.url, keyPrefix),
      dir,
      async startProcess(processName, spec) {
        const child = await startNodeProcess({ ...spec, logFile: join(dir, `${processName}.log`) });
        processes.push(child);
        return child;
      },
      onClose: (closer) => closers.push(closer),
      close,
    };
  } catch (err) {
    await close({ keepLogs: true });
    throw err;
  }
}

/**
 * Runs `body` in `session`, closing it on SIGINT/SIGTERM and at the end;
 * when `body` fails, the logs are kept (and their directory named on stderr).
 *
 * @example await withBenchSession(await openBenchSession('controllers'), (session) => run(session, options));
 */
export async function withBenchSession<S extends Pick<BenchSession, 'close'>, T>(
  session: S,
  body: (session: S) => Promise<T>,
): Promise<T> {
  closeOnSignal(() => session.close());
  let failed = true;
  try {
    const result = await body(session);
    failed = false;
    return result;
  } finally {
    await session.close({ keepLogs: failed });
  }
}

/** The storage URL: the Redis URL with `keyPrefix` set. */
export function withKeyPrefix(redisUrl: string, keyPrefix: string): string {
  const url = new URL(redisUrl);
  url.searchParams.set('keyPrefix', keyPrefix);
  return url.href;
}

/** Redis's process id from INFO when it listens on this machine's loopback; otherwise its CPU cannot be read here. */
async function localPid(client: Redis, url: string): Promise<number | undefined> {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) return undefined;
  const pid = /^process_id:(\d+)/m.exec(await client.info('server'))?.[1];
  return pid === undefined ? undefined : Number(pid);
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
