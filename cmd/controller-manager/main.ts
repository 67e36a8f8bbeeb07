#!/usr/bin/env node
import { Command, InvalidArgumentError, Option } from 'commander';
import {
  builtinControllers,
  DEFAULT_LEADER_ELECTION,
  DEFAULT_SERVER,
  resolveConnection,
  startControllerManager,
} from '../../pkg/controllermanager';
import { parseDurationSeconds } from '../../pkg/util/duration';
import { logger } from '../../pkg/util/log';
import { setupSignalHandler } from '../../pkg/util/signals';

const durationMs = (value: string) => {
  try {
    return parseDurationSeconds(value) * 1000;
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
};
const bool = (value: string) => {
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw new InvalidArgumentError('must be true or false');
};
const seconds = (ms: number) => `${ms / 1000}s`;

const registry = builtinControllers();
const known = registry
  .list()
  .map((r) => `  ${r.name}${r.enabledByDefault === false ? ' (off by default)' : ''}: ${r.description}`);

const program = new Command('svc-controller-manager')
  .description('Runs the svc controllers (leader-elected), talking to the apiserver over HTTP(S).')
  .addOption(
    new Option('--server <url>', `the apiserver (default: the kubeconfig's, else ${DEFAULT_SERVER})`).env('SVC_SERVER'),
  )
  .addOption(new Option('--token-file <file>', 'file holding the bearer token to send').env('SVC_TOKEN_FILE'))
  .addOption(
    new Option(
      '--certificate-authority <file>',
      "PEM file of the CA to trust for an https:// server (e.g. the apiserver's --tls-self-signed ca.crt)",
    ).env('SVC_CERTIFICATE_AUTHORITY'),
  )
  .addOption(
    new Option(
      '--kubeconfig <file>',
      'kubeconfig-style file naming the server, the CA and the token (the flags above win)',
    ).env('SVC_KUBECONFIG'),
  )
  .addOption(
    new Option('--controllers <list>', 'comma list of controllers: * (all on by default), name, -name')
      .env('SVC_CONTROLLERS')
      .default('*'),
  )
  .addOption(
    new Option('--leader-elect [bool]', 'run the controllers only while holding the Lease (several replicas may run)')
      .env('SVC_LEADER_ELECT')
      .argParser(bool)
      .default(true),
  )
  .addOption(
    new Option('--leader-elect-resource-name <name>', 'the Lease (coordination.svc.run/v1alpha1) to elect through')
      .env('SVC_LEADER_ELECT_RESOURCE_NAME')
      .default(DEFAULT_LEADER_ELECTION.leaseName),
  )
  .addOption(
    new Option(
      '--leader-elect-lease-duration <duration>',
      'a standby takes over this long after the lease last changed',
    )
      .env('SVC_LEADER_ELECT_LEASE_DURATION')
      .argParser(durationMs)
      .default(DEFAULT_LEADER_ELECTION.leaseDurationMs, seconds(DEFAULT_LEADER_ELECTION.leaseDurationMs)),
  )
  .addOption(
    new Option('--leader-elect-renew-deadline <duration>', 'the leader stops when it could not renew for this long')
      .env('SVC_LEADER_ELECT_RENEW_DEADLINE')
      .argParser(durationMs)
      .default(DEFAULT_LEADER_ELECTION.renewDeadlineMs, seconds(DEFAULT_LEADER_ELECTION.renewDeadlineMs)),
  )
  .addOption(
    new Option('--leader-elect-retry-period <duration>', 'how often candidates try to acquire and the leader renews')
      .env('SVC_LEADER_ELECT_RETRY_PERIOD')
      .argParser(durationMs)
      .default(DEFAULT_LEADER_ELECTION.retryPeriodMs, seconds(DEFAULT_LEADER_ELECTION.retryPeriodMs)),
  )
  .addOption(
    new Option('--metrics-listen <host:port>', 'serve /metrics, /healthz, /livez and /readyz here; "off" for none')
      .env('SVC_METRICS_LISTEN')
      .default('127.0.0.1:10257'),
  )
  .addHelpText(
    'after',
    `\nControllers:\n${known.join('\n')}\n\nLogging: SVC_LOG_LEVEL=debug|info|warn|error (default info); SVC_LOG_FORMAT=json|text (default: text on a terminal, else JSON).
Exit status: 0 after SIGINT/SIGTERM (controllers drained, lease released); 1 when the lease is lost or start-up fails.`,
  )
  .parse();

interface Flags {
  server?: string;
  tokenFile?: string;
  certificateAuthority?: string;
  kubeconfig?: string;
  controllers: string;
  leaderElect: boolean;
  leaderElectResourceName: string;
  leaderElectLeaseDuration: number;
  leaderElectRenewDeadline: number;
  leaderElectRetryPeriod: number;
  metricsListen: string;
}

async function main(): Promise<void> {
  const opts = program.opts<Flags>();
  const { server, token, ca } = resolveConnection(opts);
  const running = await startControllerManager(
    {
      server,
      token,
      ca,
      registry,
      controllers: opts.controllers.split(','),
      leaderElection: opts.leaderElect && {
        leaseName: opts.leaderElectResourceName,
        leaseDurationMs: opts.leaderElectLeaseDuration,
        renewDeadlineMs: opts.leaderElectRenewDeadline,
        retryPeriodMs: opts.leaderElectRetryPeriod,
      },
      metricsListen: ['', 'off'].includes(opts.metricsListen) ? undefined : opts.metricsListen,
    },
    logger,
  );
  setupSignalHandler().addEventListener('abort', () => {
    logger.info('stopping: letting in-flight reconciles finish, then releasing the lease');
    void running.stop();
  });
  await running.done;
  logger.info('controller-manager stopped');
}

main().then(
  () => process.exit(0),
  (err: Error) => {
    logger.fatal({ err: err.message, reason: err.name }, 'controller-manager failed');
    process.exit(1);
  },
);
