#!/usr/bin/env node
import { homedir } from 'node:os';
import { runSvcctl } from '../../pkg/cli';

void runSvcctl(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdin: process.stdin,
  env: process.env,
  home: homedir(),
}).then((code) => {
  process.exitCode = code;
});
