import { performance } from 'node:perf_hooks';
import { freePort } from '../../pkg/util/free-port';
import { PATHS } from '../apiserver/paths';
import { Api } from '../rbac/api';
import type { NodeProcess } from '../support/node-process';
import type { BenchSession } from '../support/session';

/** An apiserver process of the benchmark, with when it was spawned. */
export interface PluginApiserver {
  url: string;
  pid: number;
  api: Api;
  process: NodeProcess;
  /** `performance.now()` just before the process was spawned. */
  spawnedAt: number;
  /** `Date.now()` at the same moment: status timestamps written after it are this start's. */
  spawnedAtWallMs: number;
  /** Milliseconds from spawning to `/healthz` answering 200. */
  healthyAfterMs: number;
}

/**
 * Starts `dist/cmd/apiserver/main.js` on a free port with `--plugins-dir
 * pluginsDir`, against `storeUrl`, with `--authorization-mode AlwaysAllow`
 * (as bench/apiserver: the route and the GET pass the same, trivial,
 * authorisation); resolves once `/healthz` answers (plugins start in the
 * background after that).
 */
export async function startPluginApiserver(
  session: BenchSession,
  name: string,
  pluginsDir: string,
  storeUrl: string,
): Promise<PluginApiserver> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const spawnedAtWallMs = Date.now();
  const spawnedAt = performance.now();
  const child = await session.startProcess(name, {
    script: PATHS.apiserver,
    args: [
      '--listen',
      `127.0.0.1:${port}`,
      '--store',
      storeUrl,
      '--authorization-mode',
      'AlwaysAllow',
      '--plugins-dir',
      pluginsDir,
    ],
    readyUrl: `${url}/healthz`,
  });
  const healthyAfterMs = performance.now() - spawnedAt;
  const api = new Api(url);
  session.onClose(() => api.close());
  return { url, pid: child.pid, api, process: child, spawnedAt, spawnedAtWallMs, healthyAfterMs };
}

/** Stops the apiserver and closes the benchmark's connections to it. */
export async function stopPluginApiserver(server: PluginApiserver): Promise<void> {
  server.api.close();
  await server.process.stop();
}
