import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { freePort } from '../../pkg/util/free-port';

const HOW_TO_GET_REDIS =
  'The benchmark needs Redis: install redis-server (Debian: apt-get install redis-server) so that it can ' +
  'start a private one, or set REDIS_URL=redis://host:port/db to use a running one.';

/** How long a private redis-server may take to answer PING after it is started. */
const START_DEADLINE_MS = 10_000;
const POLL_INTERVAL_MS = 50;

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
 * The Redis to benchmark against: `REDIS_URL` when it is set, else a private
 * `redis-server` on a free port in a scratch directory, without persistence
 * (`--save '' --appendonly no`), which `stop()` ends.
 *
 * @example const redis = await benchRedis(); try { … } finally { await redis.stop(); }
 */
export async function benchRedis(): Promise<BenchRedis> {
  const external = process.env.REDIS_URL;
  if (external) return { url: external, origin: 'REDIS_URL', stop: async () => undefined };
  return startRedisServer();
}

/** Starts a private redis-server and waits until it answers PING. */
export async function startRedisServer(): Promise<BenchRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '',
    '--appendonly', 'no', '--logfile', join(dir, 'redis.log')];
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}/0`;
  const stop = async () => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (err) => reject(new Error(`${HOW_TO_GET_REDIS} (${err.message})`)));
    child.once('exit', (code) => reject(new Error(`redis-server exited with code ${code}; see ${dir}/redis.log`)));
  });
  failed.catch(() => undefined);
  try {
    await Promise.race([failed, untilAnswers(url)]);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, origin: `private redis-server on port ${port}, no persistence`, stop };
}

/** Ends the server with SIGTERM and waits for it to exit. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Resolves once Redis at `url` answers PING; rejects after START_DEADLINE_MS. */
async function untilAnswers(url: string): Promise<void> {
  const deadline = Date.now() + START_DEADLINE_MS;
  while (!(await answers(url))) {
    if (Date.now() > deadline) throw new Error(`redis-server at ${url} did not answer within ${START_DEADLINE_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

async function answers(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
