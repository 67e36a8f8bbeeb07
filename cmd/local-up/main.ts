#!/usr/bin/env node
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { sleep } from '../../pkg/util/backoff';
import { logger } from '../../pkg/util/log';
import { setupSignalHandler } from '../../pkg/util/signals';

/**
 * `make run`: the apiserver and the controller-manager as two processes, wired
 * together; Ctrl-C stops both. If either dies, the other is stopped too. The
 * apiserver serves plain HTTP on --listen (curl, the controller-manager) and
 * HTTPS on --tls-listen with a self-signed certificate kept in <data-dir>/tls
 * (kubectl sends a token over HTTPS only).
 */
const program = new Command('svc-local-up')
  .description('Runs the apiserver and the controller-manager together for local work.')
  .addOption(
    new Option('--listen <host:port>', "the apiserver's plain HTTP address")
      .env('SVC_LISTEN')
      .default('127.0.0.1:8080'),
  )
  .addOption(
    new Option(
      '--tls-listen <host:port>',
      'the apiserver\'s HTTPS address, with a self-signed certificate kept in <data-dir>/tls; "off" for none',
    )
      .env('SVC_TLS_LISTEN')
      .default('127.0.0.1:8443'),
  )
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
  .addHelpText(
    'after',
    `
Example:
  svc-local-up --listen 127.0.0.1:8080 --tls-listen 127.0.0.1:8443
  svcctl login --server https://127.0.0.1:8443 --certificate-authority data/tls/ca.crt --username admin`,
  )
  .parse();

const { listen, tlsListen, store, dataDir, metricsListen } = program.opts<{
  listen: string;
  tlsListen: string;
  store: string;
  dataDir: string;
  metricsListen: string;
}>();
const serveTls = tlsListen !== 'off';

/** The children's environment: local-up's own `SVC_TLS_LISTEN` (it may be "off") is not the apiserver's flag. */
const childEnv = (): NodeJS.ProcessEnv => {
  const { SVC_TLS_LISTEN: _ours, ...env } = process.env;
  return env;
};

const node = (script: string, args: string[]): ChildProcess =>
  // The IPC channel is how the apiserver says where it is serving (see cmd/apiserver). Each child is started as
  // this process was, with its Node options (as `fork` does) and its file kind: `main.js` built, `main.ts` from
  // sources under the tests' transpiler.
  spawn(process.execPath, [...process.execArgv, join(__dirname, '..', script, basename(__filename)), ...args], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: childEnv(),
  });

/** Resolves with a child's exit code (1 when a signal ended it). */
const exitCodeOf = (child: ChildProcess): Promise<number> =>
  new Promise<number>((r) => child.once('exit', (code) => r(code ?? 1)));

async function main(): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const tokenFile = resolve(dataDir, 'controller-manager.token');
  const tlsArgs = serveTls ? ['--tls-listen', tlsListen, '--tls-self-signed', resolve(dataDir, 'tls')] : [];
  const apiserver = node('apiserver', [
    ...['--listen', listen, '--store', store, '--controller-manager-token-file', tokenFile],
    ...tlsArgs,
  ]);
  const children: ChildProcess[] = [apiserver];
  const stopAll = () => children.forEach((c) => c.exitCode === null && c.kill('SIGTERM'));
  const exited = [exitCodeOf(apiserver)];
  const signal = setupSignalHandler();
  signal.addEventListener('abort', stopAll);
  const listening = await readyApiserver(apiserver, signal);
  if (listening !== undefined) {
    if (listening.secureUrl) tellWhereHttpsIs(listening.secureUrl, listening.caFile);
    const cm = node('controller-manager', [
      ...['--server', listening.url, '--token-file', tokenFile, '--leader-elect=false'],
      ...['--metrics-listen', metricsListen],
    ]);
    children.push(cm);
    exited.push(exitCodeOf(cm));
  }
  const first = await Promise.race(exited);
  if (!signal.aborted) logger.error({ code: first }, 'a process exited; stopping the other');
  stopAll();
  const codes = await Promise.all(exited);
  process.exit(signal.aborted ? 0 : Math.max(...codes, 1));
}

/** Where the apiserver child serves: its plain HTTP URL, and its HTTPS one with the CA file to trust. */
interface Listening {
  url: string;
  secureUrl?: string;
  caFile?: string;
}

/**
 * Where the apiserver serves, once it has reported it and answers /readyz on
 * its plain HTTP listener; undefined when it exits first or the user stops.
 */
async function readyApiserver(apiserver: ChildProcess, signal: AbortSignal): Promise<Listening | undefined> {
  const reported = await apiserverUrl(apiserver, signal);
  if (reported === undefined) return undefined;
  const url = reachable(reported.url);
  await waitUntilReady(`${url}/readyz`, signal, apiserver);
  if (signal.aborted || apiserver.exitCode !== null) return undefined;
  return { ...reported, url, secureUrl: reported.secureUrl && reachable(reported.secureUrl) };
}

/** Logs the HTTPS address, the CA file, and the command that logs svcctl in there. */
function tellWhereHttpsIs(secureUrl: string, caFile: string | undefined): void {
  const ca = caFile && shortPath(caFile);
  // In the data folder: a kubeconfig holds a token, and git ignores that folder.
  const kubeconfig = shortPath(resolve(dataDir, 'svc.kubeconfig'));
  logger.info(
    {
      server: secureUrl,
      certificateAuthority: ca,
      login: `svcctl login --server ${secureUrl} --certificate-authority ${ca} --username admin`,
      then: `svcctl config kubeconfig -o ${kubeconfig} && KUBECONFIG=${kubeconfig} kubectl get models`,
    },
    'serving HTTPS for kubectl and svcctl (docs/kubectl.md)',
  );
}

/** A path relative to the working directory when it lies beneath it (`data/tls/ca.crt`), else as given. */
function shortPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/**
 * Where the apiserver child serves, as it reports it once it has bound
 * its ports; undefined when it exits first (e.g. the port is taken) or the
 * user stops. Whatever else answers on that address is never mistaken for it.
 */
function apiserverUrl(apiserver: ChildProcess, signal: AbortSignal): Promise<Listening | undefined> {
  return new Promise((resolve) => {
    const done = (listening: Listening | undefined) => {
      apiserver.off('message', onMessage);
      apiserver.off('exit', onExit);
      signal.removeEventListener('abort', onExit);
      resolve(listening);
    };
    const onMessage = (message: { listening?: string; listeningSecure?: string; caFile?: string }) => {
      if (typeof message?.listening === 'string')
        done({ url: message.listening, secureUrl: message.listeningSecure, caFile: message.caFile });
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

/** Polls the apiserver's /readyz until it answers 200, the user stops, or the apiserver exits. */
async function waitUntilReady(url: string, signal: AbortSignal, apiserver: ChildProcess): Promise<void> {
  while (!signal.aborted && apiserver.exitCode === null) {
    if (await isReady(url)) return;
    await sleep(100, signal);
  }
}

async function isReady(url: string): Promise<boolean> {
  return fetch(url).then(
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
