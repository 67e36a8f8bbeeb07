import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient } from '../../pkg/client';
import { freePort } from '../../pkg/util/free-port';
import { startSentinelSet, type SentinelSet } from '../../pkg/util/redis-topologies';
import { waitFor } from '../../pkg/util/wait-for';
import { summarizeLatencies, type LatencySummary } from '../support/latency-stats';
import { startNodeProcess, type NodeProcess } from '../support/node-process';
import { PATHS } from '../support/paths';
import { verifyFailover, type FailoverVerdict } from './failover-workload';
import { COUNTERS, GcWorkload, HttpCounterWriters, HttpRecordingWatcher, PARCELS, drillModel } from './http-workload';
import { LeaderSampler } from './leader-sampler';
import { survivingStream } from './surviving-stream';

/**
 * The failover drill through processes: a primary, two replicas and three
 * Sentinels; three apiservers (`dist/cmd/apiserver`, `ack=replica`) and two
 * leader-elected controller-managers (`dist/cmd/controller-manager`), each on
 * free ports; writers incrementing counters through every apiserver, watchers
 * on each, and objects for the gc. The primary is killed (SIGKILL), then the
 * leading controller-manager; the result holds every acknowledged write and
 * watch event against what Redis kept. `make drill` prints it; the scale test
 * asserts it.
 */

/** How the drill runs. */
export interface ProcessDrillOptions {
  /** How long the load runs before the primary is killed, between the kills, and after the second. */
  loadMs: number;
  /** Counters, one writer each, spread over the apiservers. */
  counters: number;
  watchersPerApiserver: number;
  /** Where the processes' logs go. */
  logDir: string;
  /** The controller-managers' lease duration, renew deadline and retry period (e.g. `['10s', '8s', '1s']`). */
  lease: [string, string, string];
  /** Lets `ms` pass while the load runs (with progress, in the benchmark). */
  wait(label: string, ms: number): Promise<void>;
  /** Reports a step. */
  say(line: string): void;
}

/** What the drill measured. */
export interface ProcessDrillResult {
  /** From the primary's SIGKILL until the Sentinels named another. */
  promotedMs: number;
  /** From the leading controller-manager's SIGKILL until the other led. */
  takeoverMs: number;
  verdict: FailoverVerdict;
  /** Requests of the writers and the gc workload that failed (503, no answer), and how many were 500. */
  failedRequests: number;
  internalErrors: number;
  /** How long a writer or gc loop went without an answer, from its first failure to its next success. */
  outages: LatencySummary;
  /** Watches opened again after a broken watch, over every watcher. */
  watchResumes: number;
  gc: {
    /** Objects marked and released (their finalizer taken off) for the gc to remove. */
    released: number;
    releasedAfterPrimaryKill: number;
    releasedAfterLeaderKill: number;
    /** From the end of the load until the gc had removed every released object. */
    drainMs: number;
  };
  /** Samples of the controller-managers' leader gauge, and those in which two led at once. */
  leaderSamples: number;
  leaderOverlaps: number;
  /**
   * Times a controller-manager exited on its own (it could not renew its lease within the renew deadline, or saw
   * another holder) and was started again, as a supervisor would.
   */
  leaseLosses: number;
}

/** How long a process may take to be ready, and any step of the drill: minutes on a machine that other work shares (a load of 30 on 2 cores). */
const STEP_DEADLINE_MS = 180_000;

const MODELS = { group: 'apiextensions.svc.run', version: 'v1alpha1', plural: 'models', kind: 'Model' };

/** An apiserver or controller-manager process of the drill. */
interface Started {
  process: NodeProcess;
  url: string;
}

export async function runProcessDrill(options: ProcessDrillOptions): Promise<ProcessDrillResult> {
  const { say } = options;
  const processes: NodeProcess[] = [];
  let set: SentinelSet | undefined;
  let sampler: LeaderSampler | undefined;
  const watchers: HttpRecordingWatcher[] = [];
  let stopManagers = async (): Promise<unknown> => undefined;
  /** Stops the writers and the gc workload (which retry until they are stopped). */
  let stopLoad = async (): Promise<unknown> => undefined;
  try {
    say('starting a primary, two replicas and three Sentinels');
    set = await startSentinelSet({ replicas: 2, sentinels: 3, downAfterMs: 1_000 });
    const keyPrefix = `drill-${randomBytes(4).toString('hex')}`;
    const store = `${set.url}?ack=replica&keyPrefix=${keyPrefix}`;
    say('starting three apiservers');
    const apiservers: Started[] = [];
    // Given, so that no apiserver writes one of its own into the working directory.
    const adminPasswordFile = join(options.logDir, 'admin-password');
    writeFileSync(adminPasswordFile, `${randomBytes(12).toString('hex')}\n`, { mode: 0o600 });
    for (let i = 0; i < 3; i++) {
      apiservers.push(await startApiserver(options.logDir, `apiserver-${i}`, [store, adminPasswordFile]));
    }
    processes.push(...apiservers.map((a) => a.process));
    const clients = apiservers.map((a) => new ApiClient({ server: a.url, requestTimeoutMs: 10_000 }));
    for (const res of [COUNTERS, PARCELS]) await clients[0].create(MODELS, drillModel(res));
    await waitFor(
      async () => {
        await Promise.all(clients.flatMap((c) => [c.list(COUNTERS, { limit: 1 }), c.list(PARCELS, { limit: 1 })]));
        return true;
      },
      { timeoutMs: STEP_DEADLINE_MS, what: 'every apiserver to serve the drill models' },
    );

    say('starting two controller-managers (leader-elected)');
    const managers: SupervisedControllerManager[] = [];
    for (let i = 0; i < 2; i++) {
      const manager = new SupervisedControllerManager(options, `controller-manager-${i}`, apiservers[i].url);
      managers.push(manager);
      await manager.start();
    }
    stopManagers = () => Promise.all(managers.map((m) => m.stop()));
    sampler = new LeaderSampler(managers.map((m) => `${m.url}/metrics`));
    const leaderSampler = sampler;
    await waitFor(() => leaderSampler.leader() >= 0, {
      timeoutMs: STEP_DEADLINE_MS,
      what: 'a controller-manager to lead',
    });

    const names = Array.from({ length: options.counters }, (_, i) => `c${i}`);
    const writers = new HttpCounterWriters(clients, names);
    // The counters exist before the watchers start: a watch from the empty type's revision, "0", would begin
    // with the objects listed as they are (Kubernetes' meaning of 0), not with every change after revision 0.
    await writers.create();
    for (const client of clients) {
      const revision = Number((await client.list(COUNTERS, { limit: 1 })).resourceVersion);
      for (let w = 0; w < options.watchersPerApiserver; w++) watchers.push(new HttpRecordingWatcher(client, revision));
    }
    writers.start();
    const gc = new GcWorkload(clients);
    gc.start();
    stopLoad = () => Promise.all([writers.stop(), gc.stop()]);

    await options.wait('load before the primary is killed', options.loadMs);
    const primaryKilledAt = Date.now();
    const killed = set.servers[0].port;
    await set.servers[0].kill('SIGKILL');
    say(`killed the primary (port ${killed}) with SIGKILL`);
    const sentinels = set;
    const newPrimary = await waitFor(
      async () => {
        const port = await sentinels.primaryPort();
        return port !== killed ? port : undefined;
      },
      { timeoutMs: STEP_DEADLINE_MS, intervalMs: 50, what: 'a replica to be promoted' },
    );
    const promotedMs = Date.now() - primaryKilledAt;
    say(`a replica (port ${newPrimary}) is the primary after ${promotedMs} ms`);

    await options.wait('load after the primary was killed', options.loadMs);
    // A leader that lost its lease through the failover is started again, and someone leads once the lease expires.
    const { leader } = await waitFor(
      () => {
        const index = leaderSampler.leader();
        return index >= 0 ? { leader: index } : undefined;
      },
      { timeoutMs: STEP_DEADLINE_MS, what: 'a controller-manager to lead before the leader is killed' },
    );
    const leaderKilledAt = Date.now();
    await managers[leader].kill();
    say(`killed the leading controller-manager (${leader}) with SIGKILL`);
    await waitFor(() => leaderSampler.leader() === 1 - leader, {
      timeoutMs: STEP_DEADLINE_MS,
      intervalMs: 50,
      what: 'the other controller-manager to take the lease',
    });
    const takeoverMs = Date.now() - leaderKilledAt;
    say(`the other controller-manager leads after ${takeoverMs} ms`);

    await options.wait('load after the leader was killed', options.loadMs);
    await stopLoad();
    const loadEnd = Date.now();
    const survivor = clients[1 - leader];
    await waitFor(async () => (await survivor.list(PARCELS, { limit: 1 })).items.length === 0, {
      timeoutMs: STEP_DEADLINE_MS,
      intervalMs: 100,
      what: 'the gc to remove every released object',
    });
    const drainMs = Date.now() - loadEnd;
    const final = Number((await clients[0].list(COUNTERS, { limit: 1 })).resourceVersion);
    await waitFor(() => watchers.every((w) => w.position >= final), {
      timeoutMs: STEP_DEADLINE_MS,
      what: 'the watchers',
    });
    const watchersDone = watchers.splice(0);
    await Promise.all(watchersDone.map((w) => w.stop()));
    await sampler.stop();

    const acknowledged = writers.acknowledged;
    const type = `${COUNTERS.plural}.${COUNTERS.group}`;
    const verdict = verifyFailover(acknowledged, watchersDone, await survivingStream(newPrimary, keyPrefix, type));
    const releasedAt = [...gc.released.values()];
    return {
      promotedMs,
      takeoverMs,
      verdict,
      failedRequests: writers.failures.length + gc.failures.length,
      internalErrors: writers.internalErrors + gc.internalErrors,
      outages: summarizeLatencies([...writers.outages, ...gc.outages]),
      watchResumes: watchersDone.reduce((sum, w) => sum + w.resumes, 0),
      gc: {
        released: releasedAt.length,
        releasedAfterPrimaryKill: releasedAt.filter((at) => at >= primaryKilledAt).length,
        releasedAfterLeaderKill: releasedAt.filter((at) => at >= leaderKilledAt).length,
        drainMs,
      },
      leaderSamples: sampler.rounds,
      leaderOverlaps: sampler.overlaps,
      leaseLosses: managers.reduce((sum, m) => sum + m.restarts, 0),
    };
  } finally {
    await stopLoad().catch(() => undefined);
    await Promise.all(watchers.map((w) => w.stop().catch(() => undefined)));
    await sampler?.stop();
    await stopManagers();
    await Promise.all(processes.map((p) => p.stop()));
    await set?.destroy();
  }
}

async function startApiserver(logDir: string, name: string, [store, adminPasswordFile]: string[]): Promise<Started> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const process = await startNodeProcess({
    script: PATHS.apiserver,
    args: [
      '--listen',
      `127.0.0.1:${port}`,
      '--store',
      store,
      '--authorization-mode',
      'AlwaysAllow',
      '--request-timeout',
      '10s',
      '--admin-password-file',
      adminPasswordFile,
    ],
    readyUrl: `${url}/readyz`,
    logFile: join(logDir, `${name}.log`),
    readyDeadlineMs: STEP_DEADLINE_MS,
  });
  return { process, url };
}

/**
 * A leader-elected controller-manager running every controller, on a port of
 * its own, started again when it exits on its own (a controller-manager that
 * loses its lease exits, and its supervisor starts it over) until `kill()`
 * or `stop()`.
 */
class SupervisedControllerManager {
  /** Times it exited on its own and was started again. */
  restarts = 0;
  url = '';
  private process: NodeProcess | undefined;
  private supervising: NodeJS.Timeout | undefined;
  private restarting: Promise<void> | undefined;

  constructor(
    private readonly options: ProcessDrillOptions,
    private readonly name: string,
    private readonly server: string,
  ) {}

  async start(): Promise<void> {
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}`;
    this.process = await this.spawn(port);
    this.supervising = setInterval(() => {
      if (this.process?.running || this.restarting) return;
      this.restarts++;
      this.options.say(`${this.name} exited on its own; starting it again`);
      this.restarting = this.spawn(port).then(
        (started) => {
          this.process = started;
          this.restarting = undefined;
        },
        (err: Error) => this.options.say(`${this.name} could not start again: ${err.message}`),
      );
    }, 200);
  }

  /** Kills it with SIGKILL, for good. */
  async kill(): Promise<void> {
    clearInterval(this.supervising);
    await this.restarting;
    await this.process?.kill('SIGKILL');
  }

  async stop(): Promise<void> {
    clearInterval(this.supervising);
    await this.restarting;
    await this.process?.stop();
  }

  /** Resolves once its `/readyz` answers 200 (it knows the leader, and if it leads, has synced). */
  private spawn(port: number): Promise<NodeProcess> {
    const [duration, renew, retry] = this.options.lease;
    return startNodeProcess({
      script: PATHS.controllerManager,
      args: [
        '--server',
        this.server,
        '--leader-elect=true',
        '--leader-elect-lease-duration',
        duration,
        '--leader-elect-renew-deadline',
        renew,
        '--leader-elect-retry-period',
        retry,
        '--metrics-listen',
        `127.0.0.1:${port}`,
      ],
      readyUrl: `${this.url}/readyz`,
      logFile: join(this.options.logDir, `${this.name}.log`),
      readyDeadlineMs: STEP_DEADLINE_MS,
    });
  }
}
