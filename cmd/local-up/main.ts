#!/usr/bin/env node
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { trustingFetch } from '../../pkg/client/trusting-fetch';
import { sleep } from '../../pkg/util/backoff';
import { logger } from '../../pkg/util/log';
import { setupSignalHandler } from '../../pkg/util/signals';

/**
 * `make run`: the apiserver and the controller-manager as two processes, wired
 * together; Ctrl-C stops both. If either dies, the other is stopped too.
 */
const program = new Command('svc-local-up')
  .description('Runs the apiserver and the controller-manager together for local work.')
  .addOption(new Option('--listen <host:port>', 'apiserver address').env('SVC_LISTEN').default('127.0.0.1:8080'))
  .addOption(
    new Option('--store <url>', 'storage: file://<dir> (kept), memory:// (throwaway) or redis://host:port/db')
      .env('SVC_STORE')
      .default('file://./data'),
  )
  .addOption(
    new Option('--data-dir <dir>', "where local state is kept (the controller-manager's token, the TLS files)")
      .env('SVC_DATA_DIR')
      .default('data'),
  )
  .addOption(
    new Option(
      '--metrics-listen <host:port>',
      'the controller-manager\'s /metrics and /healthz; port 0 for a free one (it is logged), "off" for none',
    )
      .env('SVC_METRICS_LISTEN')
      .default('127.0.0.1:0'),
  )
  .addOption(
    new Option('--tls', 'serve HTTPS with a self-signed certificate kept in <data-dir>/tls (for kubectl with a token)'),
  )
  .parse();

const { listen, store, dataDir, metricsListen, tls } = program.opts<{
  listen: string;
  store: string;
  dataDir: string;
  metricsListen: string;
  tls?: boolean;
}>();
const node = (script: string, args: string[]): ChildProcess =>
  // The IPC channel is how the apiserver says where it is serving (see cmd/apiserver).
  spawn(process.execPath, [join(__dirname, '..', script, 'main.js'), ...args], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });

/** `args`, with `tlsArgs` added under `--tls`. */
const withTls = (args: string[], tlsArgs: string[]): string[] => (tls ? [...args, ...tlsArgs] : args);

/** Resolves with a child's exit code (1 when a signal ended it). */
const exitCodeOf = (child: ChildProcess): Promise<number> =>
  new Promise<number>((r) => child.once('exit', (code) => r(code ?? 1)));

async function main(): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const tokenFile = resolve(dataDir, 'controller-manager.token');
  const tlsDir = resolve(dataDir, 'tls');
  const caFile = join(tlsDir, 'ca.crt');
  const apiserver = node(
    'apiserver',
    withTls(
      ['--listen', listen, '--store', store, '--controller-manager-token-file', tokenFile],
      ['--tls-self-signed', tlsDir],
    ),
  );
  const children: ChildProcess[] = [apiserver];
  const stopAll = () => children.forEach((c) => c.exitCode === null && c.kill('SIGTERM'));
  const exited = [exitCodeOf(apiserver)];
  const signal = setupSignalHandler();
  signal.addEventListener('abort', stopAll);
  const url = await readyApiserver(apiserver, signal, caFile);
  if (url !== undefined) {
    const cm = startControllerManager(url, tokenFile, caFile);
    children.push(cm);
    exited.push(exitCodeOf(cm));
  }
  const first = await Promise.race(exited);
  if (!signal.aborted) logger.error({ code: first }, 'a process exited; stopping the other');
  stopAll();
  const codes = await Promise.all(exited);
  process.exit(signal.aborted ? 0 : Math.max(...codes, 1));
}

/**
 * The URL this machine reaches the apiserver at, once it has reported where it
 * serves and answers /readyz; undefined when it exits first or the user stops.
 */
async function readyApiserver(
  apiserver: ChildProcess,
  signal: AbortSignal,
  caFile: string,
): Promise<string | undefined> {
  const reported = await apiserverUrl(apiserver, signal);
  if (reported === undefined) return undefined;
  const url = reachable(reported);
  await waitUntilReady(`${url}/readyz`, tls ? caFile : undefined, signal, apiserver);
  return !signal.aborted && apiserver.exitCode === null ? url : undefined;
}

/** Starts the controller-manager against the apiserver at `url`, with its token (and the CA under `--tls`). */
function startControllerManager(url: string, tokenFile: string, caFile: string): ChildProcess {
  if (tls)
    logger.info(
      { server: url, certificateAuthority: caFile },
      'serving HTTPS: docs/kubectl.md shows how to point kubectl at it',
    );
  const args = ['--server', url, '--token-file', tokenFile, '--leader-elect=false', '--metrics-listen', metricsListen];
  return node('controller-manager', withTls(args, ['--certificate-authority', caFile]));
}

/**
 * The URL the apiserver child serves on, as it reports it once it has bound
 * its port; undefined when it exits first (e.g. the port is taken) or the
 * user stops. Whatever else answers on that address is never mistaken for it.
 */
function apiserverUrl(apiserver: ChildProcess, signal: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    const done = (url: string | undefined) => {
      apiserver.off('message', onMessage);
      apiserver.off('exit', onExit);
      signal.removeEventListener('abort', onExit);
      resolve(url);
    };
    const onMessage = (message: { listening?: string }) => {
      if (typeof message?.listening === 'string') done(message.listening);
    };
    const onExit = () => done(undefined);
    apiserver.on('message', onMessage);
    apiserver.once('exit', onExit);
    signal.addEventListener('abort', onExit);
  });
}

/**
 * How this machine reaches the address the apiserver reports: a wildcard host
 * (`0.0.0.0`, `[::]`) is reached at 127.0.0.1, which the self-signed certificate names.
 */
function reachable(url: string): string {
  const parsed = new URL(url);
  if (['0.0.0.0', '[::]', ''].includes(parsed.hostname)) parsed.hostname = '127.0.0.1';
  return parsed.origin;
}

/**
 * Polls the apiserver's /readyz until it answers 200, the user stops, or the
 * apiserver exits. Over HTTPS, trusting `caFile` (once the apiserver has written it).
 */
async function waitUntilReady(
  url: string,
  caFile: string | undefined,
  signal: AbortSignal,
  apiserver: ChildProcess,
): Promise<void> {
  while (!signal.aborted && apiserver.exitCode === null) {
    if (await isReady(url, caFile)) return;
    await sleep(100, signal);
  }
}

async function isReady(url: string, caFile: string | undefined): Promise<boolean> {
  const get = () => (caFile ? trustingFetch(readFileSync(caFile))(url, {}) : fetch(url));
  return new Promise<Response>((r) => r(get())).then(
    async (res) => {
      await res.arrayBuffer();
      return res.ok;
    },
    () => false,
  );
}

main().catch((err: Error) => {
  logger.fatal({ err: err.message }, 'local-up failed');
  process.exit(1);
});
