import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { freePort } from '../../pkg/util/free-port';
import { waitFor } from './wait-for';

const HOW_TO_GET_REDIS =
  'Redis is needed for this test. Install redis-server (Debian: apt-get install redis-server) so that ' +
  'the tests can start a private one, or set REDIS_URL=redis://host:port/db to use a running one.';

/** A private redis-server started for a test, on a free port and a scratch directory. */
export interface RedisInstance {
  url: string;
  port: number;
  /** Stops the server (SHUTDOWN NOSAVE, or SAVE when persistent) and waits for the process to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port and directory; with `persistent`, the data survive. */
  start(): Promise<void>;
  /** stop() then start(). */
  restart(): Promise<void>;
  /** Stops it and removes its directory. */
  destroy(): Promise<void>;
}

/**
 * Starts a private redis-server. `persistent: true` turns on the append-only
 * file, so that `restart()` keeps the data (for persistence tests).
 */
export async function startRedis({ persistent = false } = {}): Promise<RedisInstance> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'svc-redis-'));
  const url = `redis://127.0.0.1:${port}/0`;
  let child: ChildProcess | undefined;

  const start = async () => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '',
      '--appendonly', persistent ? 'yes' : 'no', '--logfile', join(dir, 'redis.log')];
    const proc = spawn('redis-server', args, { stdio: 'ignore' });
    child = proc;
    const failed = new Promise<never>((_, reject) => {
      proc.once('error', (err) => reject(new Error(`${HOW_TO_GET_REDIS} (${err.message})`)));
      proc.once('exit', (code) => reject(new Error(`redis-server exited with code ${code}; see ${dir}/redis.log`)));
    });
    failed.catch(() => undefined);
    await Promise.race([failed, waitFor(() => ping(url), { what: `redis-server on port ${port}` })]);
  };

  const stop = async () => {
    const proc = child;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGTERM'); // redis-server writes the AOF and exits cleanly on SIGTERM
    await exited;
    child = undefined;
  };

  await start();
  return {
    url, port, start, stop,
    restart: async () => { await stop(); await start(); },
    destroy: async () => { await stop(); rmSync(dir, { recursive: true, force: true }); },
  };
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

/**
 * The Redis the test run shares: `REDIS_URL` when set, else the one the jest
 * global setup started. Throws, with how to get one, when there is none.
 */
export function sharedRedisUrl(): string {
  const url = process.env.REDIS_URL ?? process.env.SVC_TEST_REDIS_URL;
  if (url) return url;
  throw new Error(`${HOW_TO_GET_REDIS} (${process.env.SVC_TEST_REDIS_ERROR ?? 'no Redis was started'})`);
}

/** A key prefix unique to one test, so that tests sharing a Redis never see each other's keys. */
export const uniqueKeyPrefix = (label = 't'): string => `${label}-${randomBytes(6).toString('hex')}`;
