import { collectDefaultMetrics, Registry } from 'prom-client';
import pkg from '../../package.json';
import { ApiClient } from '../client/api-client';
import { Manager } from '../controller/manager';
import type { Logger } from '../util/log';
import { builtinControllers } from './builtin-controllers';
import type { ControllerRegistry } from './controller-registry';
import { candidateIdentity } from './identity';
import { serveMetrics, type MetricsServer } from './metrics-server';
import { Readiness } from './readiness';

/** Leader election of the controller-manager replicas (Kubernetes' defaults and lease name). */
export interface LeaderElectionSettings {
  /** The Lease's name; default `svc-controller-manager`. */
  leaseName: string;
  /** Default 15 s. */
  leaseDurationMs: number;
  /** Default 10 s. */
  renewDeadlineMs: number;
  /** Default 2 s. */
  retryPeriodMs: number;
  /** Default: host name, pid and a random suffix. */
  identity?: string;
  /** Give the lease up on a graceful stop, so that a standby takes over at once (default true). */
  releaseOnStop?: boolean;
}

/** The defaults of leader election: what `--leader-elect-*` flags default to. */
export const DEFAULT_LEADER_ELECTION: LeaderElectionSettings = {
  leaseName: 'svc-controller-manager',
  leaseDurationMs: 15_000,
  renewDeadlineMs: 10_000,
  retryPeriodMs: 2_000,
};

/** The leader election settings with their defaults and this candidate's identity; undefined when it is off. */
function leaderElectionOf(
  config: ControllerManagerConfig,
): (LeaderElectionSettings & { identity: string }) | undefined {
  if (config.leaderElection === false) return undefined;
  const election = { ...DEFAULT_LEADER_ELECTION, ...config.leaderElection };
  return { ...election, identity: election.identity ?? candidateIdentity() };
}

/** Everything a controller-manager is configured with (flags or environment, see cmd/controller-manager). */
export interface ControllerManagerConfig {
  /** The apiserver, e.g. `http://127.0.0.1:8080`. */
  server: string;
  /** Sent as `Authorization: Bearer <token>` on every request. */
  token?: string;
  /** PEM certificates trusted for an `https://` server instead of the system's. */
  ca?: string;
  /** Which controllers to run, as `--controllers` reads them (`*`, `name`, `-name`); default `['*']`. */
  controllers?: readonly string[];
  /** The controllers known by name; default `builtinControllers()`. */
  registry?: ControllerRegistry;
  /** On (the default) with these settings, each defaulting to DEFAULT_LEADER_ELECTION's; `false`: run the controllers at once, alone. */
  leaderElection?: Partial<LeaderElectionSettings> | false;
  /** `host:port` (port 0: a free one) to serve `/metrics`, `/healthz`, `/livez` and `/readyz` on; absent: none. */
  metricsListen?: string;
}

/** A running controller-manager. */
export interface RunningControllerManager {
  /** The runtime's manager holding the controllers (`isLeader()`, `has(name)`). */
  manager: Manager;
  /** The API client every controller writes through (with the token). */
  client: ApiClient;
  /** The names of the controllers it runs. */
  controllers: string[];
  /** Its leader-election identity; undefined without leader election. */
  identity: string | undefined;
  /** Where `/metrics`, `/healthz`, `/livez` and `/readyz` are served; undefined when not asked for. */
  metricsUrl: string | undefined;
  /**
   * Settles once it has stopped: resolves after `stop()`, rejects with the
   * runtime's `LeadershipLostError` when the lease was lost (then the
   * process should exit non-zero, so that its supervisor starts it over).
   */
  done: Promise<void>;
  /** Stops gracefully: the controllers finish their in-flight reconciles, the lease is released, the metrics endpoint closes. */
  stop(): Promise<void>;
}

/**
 * Starts a controller-manager: the selected controllers in one Manager
 * (leader-elected unless asked otherwise), talking to the apiserver over
 * HTTP only, with its metrics (the runtime's and the process's) served when
 * `metricsListen` is given. Resolves once it runs (campaigning, with leader
 * election); throws at once on an unknown controller name or an address
 * that cannot be bound. The one function `main.ts` and the tests call.
 * @example
 * const cm = await startControllerManager({ server: 'http://127.0.0.1:8080', metricsListen: '127.0.0.1:10257' }, logger);
 * setupSignalHandler().addEventListener('abort', () => void cm.stop());
 * await cm.done;
 */
export async function startControllerManager(
  config: ControllerManagerConfig,
  log: Logger,
): Promise<RunningControllerManager> {
  const registrations = (config.registry ?? builtinControllers()).select(config.controllers ?? ['*']);
  const metrics = new Registry();
  collectDefaultMetrics({ register: metrics });
  const client = new ApiClient({
    server: config.server,
    token: config.token,
    ca: config.ca,
    userAgent: `svc-controller-manager/${pkg.version}`,
  });
  const election = leaderElectionOf(config);
  const identity = election?.identity;
  const manager = new Manager({ client, log, metrics, leaderElection: election?.identity ? election : undefined });
  for (const registration of registrations) {
    await registration.setup({ manager, client, log });
  }
  const readiness = new Readiness(manager, client, election !== undefined);
  const endpoint: MetricsServer | undefined = config.metricsListen
    ? await serveMetrics(config.metricsListen, metrics, log, () => readiness.problems())
    : undefined;
  const done = manager.done.finally(() => endpoint?.close());
  done.catch(() => undefined); // the caller observes it through `done`
  // Without leader election, start() resolves only once every controller has started (caches synced); do not wait for that here.
  manager.start().catch((err: unknown) => log.error({ err }, 'the manager failed to start'));
  const controllers = registrations.map((r) => r.name);
  log.info(
    { server: config.server, controllers, identity, leaderElection: election !== undefined },
    'controller-manager started',
  );
  return {
    manager,
    client,
    controllers,
    identity,
    metricsUrl: endpoint?.url,
    done,
    stop: async () => {
      await manager.stop();
      await done.catch(() => undefined);
    },
  };
}
