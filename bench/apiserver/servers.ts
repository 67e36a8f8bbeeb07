import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { freePort } from '../../pkg/util/free-port';
import { startNodeProcess, untilOk, type NodeProcess } from '../support/node-process';
import { PATHS } from './paths';
import { PERSONS_PATH } from './persons';

/** A server process under test and where it answers. */
export interface ServerUnderTest {
  /** e.g. `http://127.0.0.1:40123`. */
  url: string;
  process: NodeProcess;
}

/** Where the servers store: a Redis URL without query parameters and a key prefix of this run. */
export interface StoreTarget {
  redisUrl: string;
  keyPrefix: string;
}

/** Where the server processes write what they leave behind. */
export interface ServerOutput {
  /** The directory of the servers' logs. */
  logDir: string;
  /** When set, each server is run with `--cpu-prof` and writes its CPU profile here when it stops. */
  profileDir?: string;
}

/** Node options that write a CPU profile into `dir`, or none. */
const profiling = (dir: string | undefined): string[] =>
  dir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', dir];

/** The apiserver's `--watch-retention`, which the baseline's write script is given too. */
export const WATCH_RETENTION = 100_000;
const MODELS_PATH = '/apis/apiextensions.svc.run/v1alpha1/models';

/**
 * Starts the real apiserver (`dist/cmd/apiserver/main.js`, AlwaysAllow) on a free port
 * against `target`, registers the Person Model by POSTing its manifest as
 * YAML, and waits until the persons API answers 200.
 */
export async function startApiserver(target: StoreTarget, output: ServerOutput): Promise<ServerUnderTest> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const store = new URL(target.redisUrl);
  store.searchParams.set('keyPrefix', target.keyPrefix);
  const process = await startNodeProcess({
    script: PATHS.apiserver,
    // The generic API's cost, beside a bare server that checks nobody: RBAC's own cost is measured in bench/rbac.
    args: [
      '--listen',
      `127.0.0.1:${port}`,
      '--store',
      store.href,
      '--watch-retention',
      String(WATCH_RETENTION),
      '--authorization-mode',
      'AlwaysAllow',
    ],
    readyUrl: `${url}/readyz`,
    logFile: join(output.logDir, 'apiserver.log'),
    nodeArgs: profiling(output.profileDir),
  });
  try {
    const status = await post(`${url}${MODELS_PATH}`, readFileSync(PATHS.personModel, 'utf8'), 'application/yaml');
    if (status.code !== 201) throw new Error(`registering the Person model answered ${status.code}: ${status.body}`);
    await untilOk(`${url}${PERSONS_PATH}?limit=1`, 'the persons API');
  } catch (err) {
    await process.stop();
    throw err;
  }
  return { url, process };
}

/** Starts the baseline server (./baseline-server.ts) on a free port against the same data as the apiserver. */
export async function startBaseline(target: StoreTarget, output: ServerOutput): Promise<ServerUnderTest> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const process = await startNodeProcess({
    script: PATHS.baselineServer,
    args: [
      '--listen',
      `127.0.0.1:${port}`,
      '--redis',
      target.redisUrl,
      '--key-prefix',
      target.keyPrefix,
      '--model',
      PATHS.personModel,
      '--watch-retention',
      String(WATCH_RETENTION),
    ],
    readyUrl: `${url}/healthz`,
    logFile: join(output.logDir, 'baseline.log'),
    nodeArgs: profiling(output.profileDir),
  });
  return { url, process };
}

/** Sends a body with POST; resolves with the status and the body of the answer. */
export function post(url: string, body: string, contentType: string): Promise<{ code: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ code: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
