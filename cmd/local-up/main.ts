#!/usr/bin/env node
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { trustingFetch } from '../../pkg/client/trusting-fetch';
import { logger } from '../../pkg/util/log';
import { setupSignalHandler } from '../../pkg/util/signals';

/**
 * `make run`: the apiserver and the controller-manager as two processes, wired
 * together; Ctrl-C stops both. If either dies, the other is stopped too.
 */
const program = new Command('svc-local-up')
  .description('Runs the apiserver and the controller-manager together for local work.')
  .addOption(new Option('--listen <host:port>', 'apiserver address').env('SVC_LISTEN').default('127.0.0.1:8080'))
  .addOption(new Option('--store <url>', 'storage: file://<dir> (kept), memory:// (throwaway) or redis://host:port/db')
    .env('SVC_STORE').default('file://./data'))
  .addOption(new Option('--data-dir <dir>', 'where local state is kept (the controller-manager\'s token, the TLS files)').env('SVC_DATA_DIR').default('data'))
  .addOption(new Option('--tls', 'serve HTTPS with a self-signed certificate kept in <data-dir>/tls (for kubectl with a token)'))
  .parse();

const { listen, store, dataDir, tls } = program.opts<{ listen: string; store: string; dataDir: string; tls?: boolean }>();
const node = (script: string, args: string[]): ChildProcess =>
  spawn(process.execPath, [join(__dirname, '..', script, 'main.js'), ...args], { stdio: 'inherit' });

async function main(): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const tokenFile = resolve(dataDir, 'controller-manager.token');
  const tlsDir = resolve(dataDir, 'tls');
  const caFile = join(tlsDir, 'ca.crt');
  const server = localUrl(listen, tls ? 'https' : 'http');
  const apiserverArgs = ['--listen', listen, '--store', store, '--controller-manager-token-file', tokenFile];
  const children: ChildProcess[] = [node('apiserver', tls ? [...apiserverArgs, '--tls-self-signed', tlsDir] : apiserverArgs)];
  const stopAll = () => children.forEach((c) => c.exitCode === null && c.kill('SIGTERM'));
  const exited = children.map((c) => new Promise<number>((r) => c.once('exit', (code) => r(code ?? 1))));
  const signal = setupSignalHandler();
  signal.addEventListener('abort', stopAll);
  await waitUntilReady(`${server}/readyz`, tls ? caFile : undefined, signal, children[0]);
  if (!signal.aborted && children[0].exitCode === null) {
    if (tls) logger.info({ server, certificateAuthority: caFile }, 'serving HTTPS: docs/kubectl.md shows how to point kubectl at it');
    const cmArgs = ['--server', server, '--token-file', tokenFile, '--leader-elect=false'];
    const cm = node('controller-manager', tls ? [...cmArgs, '--certificate-authority', caFile] : cmArgs);
    children.push(cm);
    exited.push(new Promise<number>((r) => cm.once('exit', (code) => r(code ?? 1))));
  }
  const first = await Promise.race(exited);
  if (!signal.aborted) logger.error({ code: first }, 'a process exited; stopping the other');
  stopAll();
  const codes = await Promise.all(exited);
  process.exit(signal.aborted ? 0 : Math.max(...codes, 1));
}

/**
 * How this machine reaches `--listen`: a wildcard or empty host (`0.0.0.0`,
 * `[::]`) is reached at 127.0.0.1, which the self-signed certificate names.
 */
function localUrl(listenAddress: string, scheme: 'http' | 'https'): string {
  const at = listenAddress.lastIndexOf(':');
  const host = listenAddress.slice(0, at);
  const local = ['', '0.0.0.0', '::', '[::]'].includes(host) ? '127.0.0.1' : host;
  return `${scheme}://${local}:${listenAddress.slice(at + 1)}`;
}

/**
 * Polls the apiserver's /readyz until it answers 200, the user stops, or the
 * apiserver exits. Over HTTPS, trusting `caFile` (once the apiserver has written it).
 */
async function waitUntilReady(url: string, caFile: string | undefined, signal: AbortSignal, apiserver: ChildProcess): Promise<void> {
  while (!signal.aborted && apiserver.exitCode === null) {
    if (await isReady(url, caFile)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function isReady(url: string, caFile: string | undefined): Promise<boolean> {
  const get = () => (caFile ? trustingFetch(readFileSync(caFile))(url, {}) : fetch(url));
  return new Promise<Response>((r) => r(get())).then(async (res) => {
    await res.arrayBuffer();
    return res.ok;
  }, () => false);
}

main().catch((err: Error) => {
  logger.fatal({ err: err.message }, 'local-up failed');
  process.exit(1);
});
