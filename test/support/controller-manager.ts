import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandArgs } from './commands';
import pino from 'pino';
import type { RunningApiServer } from '../../pkg/server/app';
import type { LabelRequirement } from '../../pkg/storage/query';
import {
  startControllerManager,
  type ControllerManagerConfig,
  type RunningControllerManager,
} from '../../pkg/controllermanager';
import { applyPersonModel, person } from './person';
import { ApiClient } from '../../pkg/client';
import { client as rawClient, startTestApiServer } from './apiserver';
import { stopControllerManagers, trackControllerManager } from './running-controller-managers';

/**
 * Lease timings short enough for tests (a standby takes over within 3 s), yet
 * long enough that a leader on a busy 2-core machine does not lose its lease
 * to a slow renewal.
 */
export const TEST_LEASE = { leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 250 };

/**
 * The controller-manager's token in a file of its own (mode 0600), for the apiserver's
 * `--controller-manager-token-file`; `remove()` deletes its folder.
 * @example const cm = controllerManagerTokenFile('token-of-this-suite'); useRbacApi({ controllerManagerTokenFile: cm.file });
 */
export function controllerManagerTokenFile(token: string): { token: string; file: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cm-token-'));
  const file = join(dir, 'token');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return { token, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Starts a controller-manager in this process against `server`: every
 * controller, silent logs (set SVC_TEST_LOG_LEVEL to see them), no metrics
 * endpoint unless `config` asks. It leads alone, without a lease, unless
 * `config.leaderElection` asks for one (then with TEST_LEASE timings): a lone
 * test controller-manager whose renewal is late on a loaded machine would
 * otherwise stop leading and leave the test waiting for work nobody does.
 * `stopTestControllerManagers()` stops whatever is left.
 */
export async function startTestControllerManager(
  server: string,
  config: Partial<ControllerManagerConfig> = {},
): Promise<RunningControllerManager> {
  const log = pino({ level: process.env.SVC_TEST_LOG_LEVEL ?? 'silent' });
  const leaderElection = config.leaderElection ? { ...TEST_LEASE, ...config.leaderElection } : false;
  const cm = await startControllerManager({ ...config, server, leaderElection }, log);
  trackControllerManager(cm, server);
  return cm;
}

/** Stops every controller-manager `startTestControllerManager` started that is still running (for `afterEach`). */
export const stopTestControllerManagers = (): Promise<void> => stopControllerManagers();

/** A controller-manager running as a process of its own. */
export interface SpawnedControllerManager {
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Everything it wrote to stdout and stderr so far (JSON log lines). */
  output(): string;
}

/**
 * Starts the controller-manager in a process of its own, from its sources, with
 * these arguments and extra environment (logs at info level).
 */
export function spawnControllerManager(args: string[], env: Record<string, string> = {}): SpawnedControllerManager {
  const child = spawn(process.execPath, commandArgs('controller-manager', args), {
    env: { ...process.env, SVC_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => text };
}

/** The label every object `seedPersons` creates carries, with the batch's name as its value. */
export const BATCH_LABEL = 'gc-batch';

/**
 * Creates `count` Persons named `<batch>-<i>` labelled `gc-batch=<batch>`
 * straight through the apiserver's store (fast test setup, 100 at a time),
 * and answers their names.
 */
export async function seedPersons(server: RunningApiServer, batch: string, count: number): Promise<string[]> {
  const store = personStore(server);
  const names = Array.from({ length: count }, (_, i) => `${batch}-${i}`);
  for (let at = 0; at < names.length; at += 100) {
    await Promise.all(
      names.slice(at, at + 100).map((name) => store.create(person(name, {}, { [BATCH_LABEL]: batch }))),
    );
  }
  return names;
}

/**
 * Marks every Person of a batch for deletion through the store (as a
 * deletecollection would), 20 at a time: the controllers under test share
 * this process, and deeper bursts of writes delay their requests by seconds.
 */
export async function markPersons(server: RunningApiServer, names: readonly string[]): Promise<void> {
  const store = personStore(server);
  for (let at = 0; at < names.length; at += 20) {
    await Promise.all(names.slice(at, at + 20).map((name) => store.delete(name, undefined)));
  }
}

/** How many Persons of a batch are still stored (marked or not), read from the store. */
export async function countPersons(server: RunningApiServer, batch: string): Promise<number> {
  const selector: LabelRequirement[] = [{ key: BATCH_LABEL, op: 'in', values: [batch] }];
  return (await personStore(server).list({ labelSelector: selector, limit: 1 })).total;
}

function personStore(server: RunningApiServer) {
  const registered = server.schemes.lookup('example.com', 'v1alpha1', 'persons');
  if (!registered) throw new Error('the Person model is not served: applyPersonModel first');
  return registered.store;
}

/** An apiserver on Redis serving the Person model, and a typed client of it: what the gc and controller-manager tests share. */
export async function startPersonsApiServer(): Promise<PersonsSuite> {
  const server = await startTestApiServer();
  await applyPersonModel(rawClient(server.url));
  return { server, client: new ApiClient({ server: server.url }) };
}

/** The apiserver a suite of controller-manager tests shares, and a client of it. */
export interface PersonsSuite {
  server: RunningApiServer;
  client: ApiClient;
}

/**
 * Registers a suite's hooks: one persons apiserver for the whole suite
 * (started before it, stopped after it) and the controller-managers each test
 * starts stopped after that test. The returned object is filled in before the
 * first test runs.
 *
 * @example const suite = usePersonsApiServer(); … await startTestControllerManager(suite.server.url);
 */
export function usePersonsApiServer(): PersonsSuite {
  const suite = {} as PersonsSuite;
  beforeAll(async () => {
    Object.assign(suite, await startPersonsApiServer());
  });
  afterEach(() => stopTestControllerManagers());
  afterAll(() => suite.server.stop());
  return suite;
}
