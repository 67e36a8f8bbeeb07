import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newToken } from '../../pkg/auth/tokens';
import { waitFor } from '../../pkg/util/wait-for';
import { PATHS } from '../support/paths';
import { MODELS_PATH, PERSONS_PATH } from '../apiserver/persons';
import { redisVersion } from '../support/machine-info';
import { openBenchSession, type BenchSession } from '../support/session';
import {
  startApiserverProcess,
  startControllerManagerProcess,
  type ControllerManagerProcess,
} from '../support/svc-processes';
import { Api } from './api';

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
export type RunningControllerManager = ControllerManagerProcess;

/** The shared session with the apiservers and the controller-manager of one run, all on the same data. */
export interface RbacCluster extends BenchSession {
  /** e.g. `7.0.15 (private redis-server on port 40123, no persistence)`. */
  redisDescription: string;
  /** `Basic …` of the super administrator `admin`. */
  adminBasic: string;
  /** Starts an apiserver process (`dist/cmd/apiserver/main.js`) on a free port in `mode` (with `extraArgs`); resolves once it is ready. */
  startApiserver(name: string, mode: ClusterServer['mode'], extraArgs?: string[]): Promise<ClusterServer>;
  /** Starts `dist/cmd/controller-manager/main.js` against `server` running rbac-aggregation only, as system:controller-manager. */
  startControllerManager(server: ClusterServer): Promise<RunningControllerManager>;
}

/**
 * Opens the benchmark session, with the admin's password and the
 * controller-manager's token in files every apiserver is started with; with
 * `profileDir`, every apiserver writes a CPU profile there when it stops.
 */
export async function openRbacCluster(profileDir?: string): Promise<RbacCluster> {
  const session = await openBenchSession('rbac');
  const adminPassword = randomBytes(18).toString('base64url');
  const passwordFile = join(session.dir, 'admin-password');
  const tokenFile = join(session.dir, 'controller-manager-token');
  writeFileSync(passwordFile, adminPassword, { mode: 0o600 });
  writeFileSync(tokenFile, `${newToken()}\n`, { mode: 0o600 });
  const profiling = (name: string) =>
    profileDir === undefined
      ? []
      : ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', `${name}.cpuprofile`];

  return {
    ...session,
    redisDescription: `${redisVersion(await session.client.info('server'))} (${session.redis.origin})`,
    adminBasic: `Basic ${Buffer.from(`admin:${adminPassword}`).toString('base64')}`,
    async startApiserver(name, mode, extraArgs = []) {
      const { url, process: child } = await startApiserverProcess(session, name, {
        mode,
        args: ['--admin-password-file', passwordFile, '--controller-manager-token-file', tokenFile, ...extraArgs],
        nodeArgs: profiling(name),
      });
      const api = new Api(url);
      session.onClose(() => api.close());
      return { name, mode, url, pid: child.pid, api };
    },
    startControllerManager: (server) =>
      startControllerManagerProcess(session, server.url, 'rbac-aggregation', ['--token-file', tokenFile]),
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
    await waitFor(
      async () =>
        (await server.api.call({ method: 'GET', path: `${PERSONS_PATH}?limit=1`, authorization: admin })).status ===
        200,
      { timeoutMs: 30_000, what: `${server.name} to serve the persons API` },
    );
  }
}
