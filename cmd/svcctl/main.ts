#!/usr/bin/env node
import { homedir } from 'node:os';
import { runSvcctl } from '../../pkg/cli';

// A reader that stops early (`svcctl get persons | head`) closes the pipe: end quietly, as kubectl and Unix tools do.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(0);
});

void runSvcctl(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdin: process.stdin,
  stderrIsTTY: process.stderr.isTTY === true,
  env: process.env,
  home: homedir(),
  interrupts: () => {
    const abort = new AbortController();
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => abort.abort());
    return abort.signal;
  },
}).then((code) => {
  process.exitCode = code;
});
