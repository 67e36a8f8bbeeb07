#!/usr/bin/env node
import { Command, InvalidArgumentError, Option } from 'commander';
import { startApiServer, type ApiServerConfig } from '../../pkg/apiserver/app';
import { logger } from '../../pkg/util/log';
import { parseDurationSeconds } from '../../pkg/util/duration';
import { setupSignalHandler } from '../../pkg/util/signals';

const positiveInt = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
};
const duration = (value: string) => {
  try {
    return parseDurationSeconds(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
};

const program = new Command('svc-apiserver')
  .description('The svc API server: generated APIs for every registered model, backed by Redis, a local directory or memory.')
  .addOption(new Option('--listen <host:port>', 'address to serve on').env('SVC_LISTEN').default('127.0.0.1:8080'))
  .addOption(new Option('--store <url>', 'storage: memory://, file://<dir> (durable, embedded) or redis://host:port/db')
    .env('SVC_STORE').default('memory://'))
  .addOption(new Option('--authorization-mode <mode>', 'AlwaysAllow (RBAC arrives with the auth work)')
    .env('SVC_AUTHORIZATION_MODE').choices(['AlwaysAllow', 'RBAC']).default('AlwaysAllow'))
  .addOption(new Option('--max-body-bytes <n>', 'largest request body accepted (413 beyond)')
    .env('SVC_MAX_BODY_BYTES').argParser(positiveInt).default(3 * 1024 * 1024))
  .addOption(new Option('--watch-timeout <duration>', 'the server ends a watch after this long (e.g. 30m)')
    .env('SVC_WATCH_TIMEOUT').argParser(duration).default(1800, '30m'))
  .addOption(new Option('--watch-retention <n>', 'changes per type kept replayable for watches')
    .env('SVC_WATCH_RETENTION').argParser(positiveInt).default(100000))
  .addHelpText('after', '\nLogging: SVC_LOG_LEVEL=debug|info|warn|error (default info).')
  .parse();

async function main(): Promise<void> {
  const opts = program.opts<{
    listen: string; store: string; authorizationMode: ApiServerConfig['authorizationMode'];
    maxBodyBytes: number; watchTimeout: number; watchRetention: number;
  }>();
  const running = await startApiServer({
    listen: opts.listen, store: opts.store, authorizationMode: opts.authorizationMode,
    maxBodyBytes: opts.maxBodyBytes, watchTimeoutSeconds: opts.watchTimeout, watchRetention: opts.watchRetention,
  }, logger);
  setupSignalHandler().addEventListener('abort', () => {
    logger.info('draining');
    running.stop().then(() => process.exit(0), (err: Error) => {
      logger.error({ err: err.message }, 'shutdown failed');
      process.exit(1);
    });
  });
}

main().catch((err: Error) => {
  logger.fatal({ err: err.message }, 'apiserver failed to start');
  process.exit(1);
});
