import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Redis from 'ioredis';
import { newToken } from '../../pkg/auth/tokens';
import { freePort } from '../../pkg/util/free-port';
import { PATHS } from '../apiserver/paths';
import { PERSONS_PATH } from '../apiserver/persons';
import { WATCH_RETENTION } from '../apiserver/servers';
import { localPid, removeKeys } from '../apiserver/session';
import { redisVersion } from '../support/machine-info';
import { startNodeProcess, type NodeProcess } from '../support/node-process';
import { benchRedis, type BenchRedis } from '../support/redis-server';
import { Api } from './api';
import { until } from './until';

/** An apiserver process of the benchmark. */
export interface ClusterServer {
  /** e.g. `rbac-1`, `always-allow`. */
  name: string;
  mode: 'RBAC' | 'AlwaysAllow';
  url: string;
  pid: number;
  api: Api;
}

/** The controller-manager process and where its `/metrics` are served. */
export interface RunningControllerManager {
  process: NodeProcess;
  /** e.g. `http://127.0.0.1:40123/metrics`. */
  metricsUrl: string;
}

/** The Redis, the apiservers and the controller-manager of one run, all on the same data. */
export interface RbacCluster {
  redis: BenchRedis;
  /** The Redis server's process id when it runs here (CPU accounting). */
  redisPid?: number;
  /** e.g. `7.0.15 (private redis-server on port 40123, no persistence)`. */
  redisDescription: string;
  /** `Basic …` of the super administrator `admin`. */
  adminBasic: string;
  /** Starts an apiserver process (`dist/cmd/apiserver/main.js`) on a free port in `mode`; resolves once it is ready. */
  startApiserver(name: string, mode: ClusterServer['mode']): Promise<ClusterServer>;
  /** Starts `dist/cmd/controller-manager/main.js` against `server` running rbac-aggregation only, as system:controller-manager. */
  startControllerManager(server: ClusterServer): Promise<RunningControllerManager>;
  /** Stops every process, removes this run's keys, stops a private Redis. Safe to call twice. */
  close(options?: { keepLogs?: boolean }): Promise<void>;
}

const ROOT = resolve(__dirname, '../../..');
const CONTROLLER_MANAGER = join(ROOT, 'dist/cmd/controller-manager/main.js');
const MODELS_PATH = '/apis/apiextensions.svc.run/v1alpha1/models';

/**
 * Opens the Redis (REDIS_URL or a private redis-server) under a fresh key
 * prefix, with the admin's password and the controller-manager's token in
 * files every apiserver is started with; with `profileDir`, every apiserver
 * writes a CPU profile there when it stops.
 */
export async function openRbacCluster(profileDir?: string): Promise<RbacCluster> {
  const redis = await benchRedis();
  const keyPrefix = `bench-${randomBytes(4).toString('hex')}`;
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-rbac-'));
  const client = new Redis(redis.url, { maxRetriesPerRequest: 0 });
  const adminPassword = randomBytes(18).toString('base64url');
  const passwordFile = join(dir, 'admin-password');
  const tokenFile = join(dir, 'controller-manager-token');
  writeFileSync(passwordFile, adminPassword, { mode: 0o600 });
  writeFileSync(tokenFile, `${newToken()}\n`, { mode: 0o600 });
  const processes: NodeProcess[] = [];
  const servers: ClusterServer[] = [];
  const store = new URL(redis.url);
  store.searchParams.set('keyPrefix', keyPrefix);

  let closed: Promise<void> | undefined;
  const close = ({ keepLogs = false } = {}) => {
    closed ??= (async () => {
      for (const p of processes.reverse()) await p.stop();
      for (const s of servers) s.api.close();
      await removeKeys(client, `${keyPrefix}:*`).catch(() => undefined);
      client.disconnect();
      await redis.stop();
      if (keepLogs) process.stderr.write(`logs kept in ${dir}\n`);
      else rmSync(dir, { recursive: true, force: true });
    })();
    return closed;
  };

  return {
    redis,
    redisPid: await localPid(client, redis.url),
    redisDescription: `${redisVersion(await client.info('server'))} (${redis.origin})`,
    adminBasic: `Basic ${Buffer.from(`admin:${adminPassword}`).toString('base64')}`,
    async startApiserver(name, mode) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const child = await startNodeProcess({
        script: PATHS.apiserver,
        args: [
          '--listen',
          `127.0.0.1:${port}`,
          '--store',
          store.href,
          '--watch-retention',
          String(WATCH_RETENTION),
          '--authorization-mode',
          mode,
          '--admin-password-file',
          passwordFile,
          '--controller-manager-token-file',
          tokenFile,
        ],
        readyUrl: `${url}/readyz`,
        logFile: join(dir, `${name}.log`),
        nodeArgs:
          profileDir === undefined
            ? []
            : ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', `${name}.cpuprofile`],
      });
      processes.push(child);
      const server = { name, mode, url, pid: child.pid, api: new Api(url) };
      servers.push(server);
      return server;
    },
    async startControllerManager(server) {
      const port = await freePort();
      const child = await startNodeProcess({
        script: CONTROLLER_MANAGER,
        args: [
          '--server',
          server.url,
          '--token-file',
          tokenFile,
          '--controllers',
          'rbac-aggregation',
          '--leader-elect=false',
          '--metrics-listen',
          `127.0.0.1:${port}`,
        ],
        readyUrl: `http://127.0.0.1:${port}/healthz`,
        logFile: join(dir, 'controller-manager.log'),
      });
      processes.push(child);
      return { process: child, metricsUrl: `http://127.0.0.1:${port}/metrics` };
    },
    close,
  };
}

/**
 * Registers the Person model through `servers[0]` as the admin, and waits
 * until every server serves its API.
 */
export async function servePersons(cluster: RbacCluster, servers: readonly ClusterServer[]): Promise<void> {
  const admin = cluster.adminBasic;
  const created = await servers[0].api.call({
    method: 'POST',
    path: MODELS_PATH,
    body: readFileSync(PATHS.personModel, 'utf8'),
    contentType: 'application/yaml',
    authorization: admin,
  });
  if (created.status !== 201 && created.status !== 409)
    throw new Error(`registering the Person model answered ${created.status}: ${created.text}`);
  for (const server of servers) {
    await until(
      async () =>
        (await server.api.call({ method: 'GET', path: `${PERSONS_PATH}?limit=1`, authorization: admin })).status ===
        200,
      `${server.name} to serve the persons API`,
    );
  }
}
