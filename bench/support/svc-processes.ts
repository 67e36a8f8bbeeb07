import { freePort } from '../../pkg/util/free-port';
import { PATHS } from './paths';
import type { NodeProcess } from './node-process';
import type { BenchSession } from './session';

/** The apiserver's `--watch-retention` in every benchmark (the apiserver benchmark's baseline is given it too). */
export const WATCH_RETENTION = 100_000;

/** An apiserver process of a benchmark and where it answers. */
export interface ApiserverProcess {
  /** e.g. `http://127.0.0.1:40123`. */
  url: string;
  process: NodeProcess;
}

/** How a benchmark's apiserver is started besides its address and store. */
export interface ApiserverSpec {
  /** `--authorization-mode`. */
  mode: 'RBAC' | 'AlwaysAllow';
  /** More flags, e.g. `['--admin-password-file', file]`. */
  args?: string[];
  /** Options for node itself, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
}

/**
 * Starts the real apiserver (`dist/cmd/apiserver/main.js`) on a free port
 * against the session's store, logging to `<session dir>/<name>.log`, and
 * resolves once `/readyz` answers 200.
 */
export async function startApiserverProcess(
  session: BenchSession,
  name: string,
  spec: ApiserverSpec,
): Promise<ApiserverProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const process = await session.startProcess(name, {
    script: PATHS.apiserver,
    args: [
      '--listen',
      `127.0.0.1:${port}`,
      '--store',
      session.storeUrl,
      '--watch-retention',
      String(WATCH_RETENTION),
      '--authorization-mode',
      spec.mode,
      ...(spec.args ?? []),
    ],
    readyUrl: `${url}/readyz`,
    nodeArgs: spec.nodeArgs,
  });
  return { url, process };
}

/** The controller-manager process of a benchmark and where its `/metrics` are served. */
export interface ControllerManagerProcess {
  process: NodeProcess;
  /** e.g. `http://127.0.0.1:40123/metrics`. */
  metricsUrl: string;
}

/**
 * Starts `dist/cmd/controller-manager/main.js` against `server` running only
 * `controllers`, without leader election, its metrics on a free port; resolves
 * once its `/healthz` answers 200.
 */
export async function startControllerManagerProcess(
  session: BenchSession,
  server: string,
  controllers: string,
  args: string[] = [],
): Promise<ControllerManagerProcess> {
  const port = await freePort();
  const process = await session.startProcess('controller-manager', {
    script: PATHS.controllerManager,
    args: [
      '--server',
      server,
      ...args,
      '--controllers',
      controllers,
      '--leader-elect=false',
      '--metrics-listen',
      `127.0.0.1:${port}`,
    ],
    readyUrl: `http://127.0.0.1:${port}/healthz`,
  });
  return { process, metricsUrl: `http://127.0.0.1:${port}/metrics` };
}
