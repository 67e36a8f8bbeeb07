import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';
import { waitFor } from './wait-for';

/**
 * Private Redis topologies for tests, benchmarks and the failover drill (a
 * development helper, as ./redis-server.ts: the apiserver never starts
 * Redis): a primary with replicas and Sentinels, or a Redis Cluster. Every
 * process listens on 127.0.0.1 on a free port, with a scratch directory of
 * its own, and keeps nothing on disk unless asked.
 */

const run = promisify(execFile);
const HOST = '127.0.0.1';
/** How long a topology may take to form (cluster slots agreed, replicas in sync, Sentinels aware). */
const FORM_DEADLINE_MS = 30_000;

/** One redis-server (or Sentinel) process. */
export interface RedisProcess {
  port: number;
  /** Whether the process runs. */
  readonly running: boolean;
  /** Ends it with `signal` (SIGKILL: no chance to save or hand over anything) and waits for it to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same port, directory and arguments. */
  start(): Promise<void>;
  /** Sends it a signal without waiting (SIGSTOP and SIGCONT freeze and thaw it). */
  signal(signal: NodeJS.Signals): void;
}

/** A primary, its replicas and the Sentinels that watch them. */
export interface SentinelSet {
  /** The name the Sentinels know the primary by. */
  name: string;
  /** The primary at the start, then its replicas. */
  servers: RedisProcess[];
  sentinels: RedisProcess[];
  /** `redis+sentinel://…/<name>/0`, with `?` options appended by the caller. */
  url: string;
  /** The port of the server the Sentinels name as primary now. */
  primaryPort(): Promise<number>;
  /** Stops every process and removes the directories. */
  destroy(): Promise<void>;
}

/** A Redis Cluster. */
export interface RedisClusterSet {
  /** Masters first, then replicas (as `redis-cli --cluster create` pairs them). */
  servers: RedisProcess[];
  /** `redis+cluster://…` listing every master. */
  url: string;
  destroy(): Promise<void>;
}

/** Sends one command with redis-cli and returns its raw output. */
export async function redisCli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run('redis-cli', ['-h', HOST, '-p', String(port), ...args], { timeout: 10_000 });
  return stdout;
}

/**
 * Starts a primary, `replicas` replicas and `sentinels` Sentinels (quorum: a
 * majority), with fast failure detection (`downAfterMs`, default 1 s), and
 * waits until every replica is in sync and every Sentinel knows the others.
 */
export async function startSentinelSet({
  replicas = 1,
  sentinels = 3,
  downAfterMs = 1_000,
  name = 'svc-primary',
} = {}): Promise<SentinelSet> {
  const dirs: string[] = [];
  const processes: RedisProcess[] = [];
  const destroy = async () => {
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const primary = await startProcess(dirs, []);
    processes.push(primary);
    for (let i = 0; i < replicas; i++) {
      processes.push(await startProcess(dirs, ['--replicaof', HOST, String(primary.port)]));
    }
    const watchers: RedisProcess[] = [];
    for (let i = 0; i < sentinels; i++) {
      const config = [
        `sentinel monitor ${name} ${HOST} ${primary.port} ${Math.floor(sentinels / 2) + 1}`,
        `sentinel down-after-milliseconds ${name} ${downAfterMs}`,
        `sentinel failover-timeout ${name} ${Math.max(downAfterMs * 3, 3_000)}`,
      ];
      const sentinel = await startProcess(dirs, [], config);
      watchers.push(sentinel);
      processes.push(sentinel);
    }
    const servers = processes.slice(0, replicas + 1);
    await waitFor(
      async () => {
        const info = await redisCli(primary.port, 'INFO', 'replication');
        return (info.match(/state=online/g) ?? []).length === replicas;
      },
      { timeoutMs: FORM_DEADLINE_MS, intervalMs: 100, what: 'the replicas to be in sync' },
    );
    await waitFor(
      async () => {
        for (const sentinel of watchers) {
          const master = await redisCli(sentinel.port, 'SENTINEL', 'MASTER', name);
          const field = (key: string) => Number(new RegExp(`^${key}\\n(\\d+)`, 'm').exec(master)?.[1] ?? -1);
          if (field('num-other-sentinels') !== sentinels - 1 || field('num-slaves') !== replicas) return false;
        }
        return true;
      },
      { timeoutMs: FORM_DEADLINE_MS, intervalMs: 100, what: 'the Sentinels to know each other and the replicas' },
    );
    const hosts = watchers.map((s) => `${HOST}:${s.port}`).join(',');
    return {
      name,
      servers,
      sentinels: watchers,
      url: `redis+sentinel://${hosts}/${name}/0`,
      async primaryPort() {
        for (const sentinel of watchers) {
          if (!sentinel.running) continue;
          const reply = await redisCli(sentinel.port, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name);
          return Number(reply.trim().split('\n')[1]);
        }
        throw new Error('no Sentinel runs');
      },
      destroy,
    };
  } catch (err) {
    await destroy();
    throw err;
  }
}

/**
 * Starts a Redis Cluster of `masters` masters (3 at least) with `replicas`
 * replicas each, and waits until every node sees every slot served and every
 * replica is in sync.
 */
export async function startRedisCluster({
  masters = 3,
  replicas = 0,
  nodeTimeoutMs = 1_000,
} = {}): Promise<RedisClusterSet> {
  const dirs: string[] = [];
  const processes: RedisProcess[] = [];
  const destroy = async () => {
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters * (1 + replicas); i++) {
      const args = ['--cluster-enabled', 'yes', '--cluster-node-timeout', String(nodeTimeoutMs)];
      processes.push(await startProcess(dirs, args));
    }
    const nodes = processes.map((p) => `${HOST}:${p.port}`);
    await run('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', String(replicas), '--cluster-yes'], {
      timeout: FORM_DEADLINE_MS,
    });
    await waitFor(
      async () => {
        for (const node of processes) {
          const info = await redisCli(node.port, 'CLUSTER', 'INFO');
          if (!/cluster_state:ok/.test(info) || !/cluster_slots_ok:16384/.test(info)) return false;
          if (!new RegExp(`cluster_known_nodes:${processes.length}\\b`).test(info)) return false;
        }
        return true;
      },
      { timeoutMs: FORM_DEADLINE_MS, intervalMs: 100, what: 'the cluster to serve every slot' },
    );
    await waitFor(
      async () => {
        let online = 0;
        for (const node of processes) {
          online += ((await redisCli(node.port, 'INFO', 'replication')).match(/state=online/g) ?? []).length;
        }
        return online === masters * replicas;
      },
      { timeoutMs: FORM_DEADLINE_MS, intervalMs: 100, what: 'the replicas to be in sync' },
    );
    return {
      servers: processes,
      url: `redis+cluster://${nodes.slice(0, masters).join(',')}`,
      destroy,
    };
  } catch (err) {
    await destroy();
    throw err;
  }
}

/**
 * Starts redis-server with `args` on a free port and a new directory (a
 * Sentinel when `sentinelConfig` is given: its lines go in the config file a
 * Sentinel needs and rewrites) and waits until it answers PING.
 */
async function startProcess(dirs: string[], args: string[], sentinelConfig?: string[]): Promise<RedisProcess> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'svc-redis-topology-'));
  dirs.push(dir);
  const base = ['--port', String(port), '--bind', HOST, '--dir', dir, '--logfile', join(dir, 'redis.log')];
  let argv: string[];
  if (sentinelConfig) {
    const file = join(dir, 'sentinel.conf');
    writeFileSync(file, `${sentinelConfig.join('\n')}\n`);
    argv = [file, '--sentinel', ...base];
  } else {
    // A primary waits 5 s (repl-diskless-sync-delay) for more replicas before it sends any its data; these
    // topologies start their replicas together, so the wait only delays forming and every resync after a failover.
    argv = [...base, '--save', '', '--appendonly', 'no', '--repl-diskless-sync-delay', '0', ...args];
  }
  let child: ChildProcess | undefined;
  const process: RedisProcess = {
    port,
    get running() {
      return child !== undefined;
    },
    async kill(signal = 'SIGTERM') {
      const proc = child;
      child = undefined;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill(signal);
      await exited;
    },
    signal(signal) {
      child?.kill(signal);
    },
    async start() {
      const proc = spawn('redis-server', argv, { stdio: 'ignore' });
      child = proc;
      const failed = new Promise<never>((_, reject) => {
        proc.once('error', (err) => reject(new Error(`redis-server could not start: ${err.message}`)));
        proc.once('exit', (code) => reject(new Error(`redis-server exited with code ${code}; see ${dir}/redis.log`)));
      });
      failed.catch(() => undefined);
      const answers = waitFor(async () => (await redisCli(port, 'PING').catch(() => '')).trim() === 'PONG', {
        timeoutMs: 10_000,
        intervalMs: 50,
        what: `redis-server on port ${port} to answer PING`,
      });
      await Promise.race([failed, answers]);
    },
  };
  await process.start();
  return process;
}
