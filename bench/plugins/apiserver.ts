import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from '../../pkg/util/free-port';
import { PATHS } from '../support/paths';
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

/** Starts the benchmark's apiservers, all with the same plugins folder (and CPU profiling, when asked). */
export interface PluginApiserverLauncher {
  session: BenchSession;
  /** The folder of plugin folders every apiserver is given (`--plugins-dir`). */
  pluginsDir: string;
  /** Starts one apiserver, its log `<session dir>/<name>.log`, against `storeUrl`. */
  start(name: string, storeUrl: string): Promise<PluginApiserver>;
}

/**
 * Starts `dist/cmd/apiserver/main.js` processes on free ports with
 * `--plugins-dir <session dir>/plugins` and `--authorization-mode
 * AlwaysAllow` (as bench/apiserver: the route and the GET pass the same,
 * trivial, authorisation); each start resolves once `/healthz` answers
 * (plugins start in the background after that). With `profileDir`, each
 * writes CPU profiles there (`node --cpu-prof`) when it stops.
 */
export function pluginApiserverLauncher(session: BenchSession, profileDir?: string): PluginApiserverLauncher {
  const pluginsDir = join(session.dir, 'plugins');
  const start = async (name: string, storeUrl: string): Promise<PluginApiserver> => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const spawnedAtWallMs = Date.now();
    const spawnedAt = performance.now();
    const child = await session.startProcess(name, {
      script: PATHS.apiserver,
      args: ['--listen', `127.0.0.1:${port}`, '--store', storeUrl, '--authorization-mode', 'AlwaysAllow'].concat([
        '--plugins-dir',
        pluginsDir,
      ]),
      readyUrl: `${url}/healthz`,
      nodeArgs: profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', profileDir],
    });
    const healthyAfterMs = performance.now() - spawnedAt;
    const api = new Api(url);
    session.onClose(() => api.close());
    return { url, pid: child.pid, api, process: child, spawnedAt, spawnedAtWallMs, healthyAfterMs };
  };
  return { session, pluginsDir, start };
}

/** Stops the apiserver and closes the benchmark's connections to it. */
export async function stopPluginApiserver(server: PluginApiserver): Promise<void> {
  server.api.close();
  await server.process.stop();
}
