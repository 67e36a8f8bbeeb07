import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { sleep } from '../../pkg/util/backoff';

/** A Node script running as a child process of the benchmark, with its output in a log file. */
export interface NodeProcess {
  /** The child's process id (for CPU accounting). */
  pid: number;
  /** Where its stdout and stderr go. */
  logFile: string;
  /** Ends it with SIGTERM (SIGKILL after `STOP_DEADLINE_MS`) and waits for it to exit. */
  stop(): Promise<void>;
  /** Sends it `signal` (e.g. SIGKILL: no chance to clean up) and waits for it to exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Whether it still runs. */
  readonly running: boolean;
}

/** How long a child may take to serve after it is started (a start on a loaded machine takes tens of seconds). */
const READY_DEADLINE_MS = 90_000;
/** How long a child may take to exit after SIGTERM before it is killed. */
const STOP_DEADLINE_MS = 10_000;
const POLL_INTERVAL_MS = 50;

/** How to start a Node script as a child process. */
export interface NodeProcessSpec {
  script: string;
  args: string[];
  /** Answers 200 once the child serves. */
  readyUrl: string;
  /** Receives the child's stdout and stderr. */
  logFile: string;
  /** Options for node itself, e.g. `['--cpu-prof', '--cpu-prof-dir', '/tmp/prof']`. */
  nodeArgs?: string[];
  /** How long it may take to answer 200 at `readyUrl` (default READY_DEADLINE_MS). */
  readyDeadlineMs?: number;
}

/**
 * Starts `node <nodeArgs…> <script> <args…>` with its output in `logFile`,
 * and waits until `GET <readyUrl>` answers 200. Rejects, naming the log
 * file, when the child exits first or does not answer within READY_DEADLINE_MS.
 *
 * @example const server = await startNodeProcess({ script: 'dist/cmd/apiserver/main.js',
 *   args: ['--listen', '127.0.0.1:8081'], readyUrl: 'http://127.0.0.1:8081/healthz', logFile: '/tmp/apiserver.log' });
 */
export async function startNodeProcess(spec: NodeProcessSpec): Promise<NodeProcess> {
  const { script, logFile } = spec;
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, [...(spec.nodeArgs ?? []), script, ...spec.args], {
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const exited = new Promise<never>((_, reject) => {
    child.once('error', (err) => reject(new Error(`${script} did not start: ${err.message}`)));
    child.once('exit', (code, signal) => reject(new Error(`${script} exited (${code ?? signal}); see ${logFile}`)));
  });
  exited.catch(() => undefined);
  const stop = () => stopChild(child);
  try {
    await Promise.race([exited, untilOk(spec.readyUrl, `${script} (log: ${logFile})`, spec.readyDeadlineMs)]);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    pid: child.pid ?? 0,
    logFile,
    stop,
    kill: (signal) => stopChild(child, signal),
    get running() {
      return child.exitCode === null && child.signalCode === null;
    },
  };
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const killer = setTimeout(() => child.kill('SIGKILL'), STOP_DEADLINE_MS);
  await exited;
  clearTimeout(killer);
}

/**
 * Resolves once `GET url` answers 200; rejects after READY_DEADLINE_MS.
 *
 * @example await untilOk('http://127.0.0.1:8080/apis/example.com/v1alpha1/persons', 'the persons API');
 */
export async function untilOk(url: string, what: string, deadlineMs = READY_DEADLINE_MS): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  let last = 'no answer yet';
  for (;;) {
    last = await statusOf(url);
    if (last === '200') return;
    if (Date.now() > deadline)
      throw new Error(`${what} did not answer 200 at ${url} within ${deadlineMs} ms (last: ${last})`);
    await sleep(POLL_INTERVAL_MS);
  }
}

/** The status code of `GET url` as text, or the network error's message. */
function statusOf(url: string): Promise<string> {
  return new Promise((resolve) => {
    const req = httpRequest(url, (res) => {
      res.resume();
      res.on('end', () => resolve(String(res.statusCode)));
    });
    req.on('error', (err) => resolve(err.message));
    req.end();
  });
}
