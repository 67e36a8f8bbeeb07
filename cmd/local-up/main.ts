#!/usr/bin/env node
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Command, Option } from 'commander';
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
  .addOption(new Option('--data-dir <dir>', 'where local state is kept (the controller-manager\'s token)').env('SVC_DATA_DIR').default('data'))
  .parse();

const { listen, store, dataDir } = program.opts<{ listen: string; store: string; dataDir: string }>();
const node = (script: string, args: string[]): ChildProcess =>
  spawn(process.execPath, [join(__dirname, '..', script, 'main.js'), ...args], { stdio: 'inherit' });

async function main(): Promise<void> {
  mkdirSync(dataDir, { recursive: true });
  const tokenFile = resolve(dataDir, 'controller-manager.token');
  const children: ChildProcess[] = [node('apiserver', ['--listen', listen, '--store', store, '--controller-manager-token-file', tokenFile])];
  const stopAll = () => children.forEach((c) => c.exitCode === null && c.kill('SIGTERM'));
  const exited = children.map((c) => new Promise<number>((r) => c.once('exit', (code) => r(code ?? 1))));
  const signal = setupSignalHandler();
  signal.addEventListener('abort', stopAll);
  await waitUntilReady(`http://${listen}/readyz`, signal, children[0]);
  if (!signal.aborted && children[0].exitCode === null) {
    const cm = node('controller-manager', ['--server', `http://${listen}`, '--token-file', tokenFile, '--leader-elect=false']);
    children.push(cm);
    exited.push(new Promise<number>((r) => cm.once('exit', (code) => r(code ?? 1))));
  }
  const first = await Promise.race(exited);
  if (!signal.aborted) logger.error({ code: first }, 'a process exited; stopping the other');
  stopAll();
  const codes = await Promise.all(exited);
  process.exit(signal.aborted ? 0 : Math.max(...codes, 1));
}

/** Polls the apiserver's /readyz until it answers 200, the user stops, or the apiserver exits. */
async function waitUntilReady(url: string, signal: AbortSignal, apiserver: ChildProcess): Promise<void> {
  while (!signal.aborted && apiserver.exitCode === null) {
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

main().catch((err: Error) => {
  logger.fatal({ err: err.message }, 'local-up failed');
  process.exit(1);
});
