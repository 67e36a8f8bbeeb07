import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep } from './backoff';
import { freePort } from './free-port';

/**
 * A private `redis-server` for tests and benchmarks (a development helper:
 * the apiserver itself never starts Redis).
 */

const HOW_TO_GET_REDIS =
  'Redis is needed here: install redis-server (Debian: apt-get install redis-server) so that a private one ' +
  'can be started, or set REDIS_URL=redis://host:port/db to use a running one.';

/** How long a started redis-server may take to answer PING. */
const START_DEADLINE_MS = 10_000;
const POLL_INTERVAL_MS = 20;

/** A private redis-server on a free port and a scratch directory. */
export interface RedisServer {
  /** e.g. `redis://127.0.0.1:40123/0`. */
  url: string;
  port: number;
  /** Stops the server (SIGTERM: it writes its append-only file when persistent) and waits for the process to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port and directory; with `persistent`, the data survive. */
  start(): Promise<void>;
  /** stop() then start(). */
  restart(): Promise<void>;
  /** Stops it and removes its directory. */
  destroy(): Promise<void>;
}

/**
 * Starts a private redis-server and waits until it answers PING. Without
 * `persistent` it keeps nothing on disk (`--save '' --appendonly no`);
 * `persistent: true` turns on the append-only file, so that `restart()` keeps the data.
 *
 * @example const redis = await startRedisServer(); try { … redis.url … } finally { await redis.destroy(); }
 */
export async function startRedisServer({ persistent = false } = {}): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'svc-redis-'));
  const url = `redis://127.0.0.1:${port}/0`;
  let child: ChildProcess | undefined;

  const stop = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null || proc.pid === undefined) return;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    await exited;
  };

  const start = async () => {
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      persistent ? 'yes' : 'no',
      '--logfile',
      join(dir, 'redis.log'),
    ];
    const proc = spawn('redis-server', args, { stdio: 'ignore' });
    child = proc;
    const failed = new Promise<never>((_, reject) => {
      proc.once('error', (err) => reject(new Error(`${HOW_TO_GET_REDIS} (${err.message})`)));
      proc.once('exit', (code) => reject(new Error(`redis-server exited with code ${code}; see ${dir}/redis.log`)));
    });
    failed.catch(() => undefined);
    await Promise.race([failed, untilAnswers(url)]);
  };

  const destroy = async () => {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    await start();
  } catch (err) {
    await destroy();
    throw err;
  }
  return {
    url,
    port,
    start,
    stop,
    restart: async () => {
      await stop();
      await start();
    },
    destroy,
  };
}

/** Resolves once Redis at `url` answers PING; rejects after START_DEADLINE_MS. */
async function untilAnswers(url: string): Promise<void> {
  const deadline = Date.now() + START_DEADLINE_MS;
  while (!(await ping(url))) {
    if (Date.now() > deadline) throw new Error(`redis-server at ${url} did not answer within ${START_DEADLINE_MS} ms`);
    await sleep(POLL_INTERVAL_MS);
  }
}

/**
 * Whether a Redis answers PING at `url`, over a raw socket: an ioredis client
 * that failed to connect leaves a timer behind that holds the process up.
 */
function ping(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}
