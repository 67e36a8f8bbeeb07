import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { freePort } from '../../pkg/util/free-port';
import { untilOk } from '../support/node-process';
import type { BenchSession } from '../support/session';
import { startApiserverProcess, WATCH_RETENTION, type ApiserverProcess } from '../support/svc-processes';
import { PATHS } from '../support/paths';
import { MODELS_PATH, PERSONS_PATH } from './persons';

/** A server process under test and where it answers. */
export type ServerUnderTest = ApiserverProcess;

/** When set, each server is run with `--cpu-prof` and writes its CPU profile into this directory when it stops. */
export type ProfileDir = string | undefined;

/** Node options that write a CPU profile into `dir`, or none. */
const profiling = (dir: string | undefined): string[] =>
  dir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', dir];

/**
 * Starts the real apiserver (`dist/cmd/apiserver/main.js`, AlwaysAllow) on a free port
 * against the session's store, registers the Person Model by POSTing its manifest as
 * YAML, and waits until the persons API answers 200.
 */
export async function startApiserver(session: BenchSession, profileDir?: ProfileDir): Promise<ServerUnderTest> {
  // The generic API's cost, beside a bare server that checks nobody: RBAC's own cost is measured in bench/rbac.
  const { url, process } = await startApiserverProcess(session, 'apiserver', {
    mode: 'AlwaysAllow',
    nodeArgs: profiling(profileDir),
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
export async function startBaseline(session: BenchSession, profileDir?: ProfileDir): Promise<ServerUnderTest> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const process = await session.startProcess('baseline', {
    script: PATHS.baselineServer,
    args: [
      '--listen',
      `127.0.0.1:${port}`,
      '--redis',
      session.redis.url,
      '--key-prefix',
      session.keyPrefix,
      '--model',
      PATHS.personModel,
      '--watch-retention',
      String(WATCH_RETENTION),
    ],
    readyUrl: `${url}/healthz`,
    nodeArgs: profiling(profileDir),
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
