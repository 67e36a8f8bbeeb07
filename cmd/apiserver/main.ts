#!/usr/bin/env node
import { Command } from 'commander';
import { openStorage } from '../../pkg/storage';
import { createHealthServer } from '../../pkg/apiserver/health';
import { logger } from '../../pkg/util/log';
import { setupSignalHandler } from '../../pkg/util/signals';

const program = new Command('svc-apiserver')
  .description('The svc API server')
  .option('--listen <host:port>', 'address to serve on (env SVC_LISTEN)', process.env.SVC_LISTEN ?? '127.0.0.1:8080')
  .option('--store <url>', 'storage URL: memory:// or redis://host:port/db (env SVC_STORE)', process.env.SVC_STORE ?? 'memory://')
  .parse();

async function main(): Promise<void> {
  const opts = program.opts<{ listen: string; store: string }>();
  const [host, port] = splitHostPort(opts.listen);
  const storage = await openStorage(opts.store);
  const server = createHealthServer(storage);
  server.listen(port, host, () => logger.info({ listen: opts.listen }, 'apiserver listening'));
  const signal = setupSignalHandler();
  signal.addEventListener('abort', () => {
    logger.info('shutting down');
    server.close(() => void storage.close().then(() => process.exit(0)));
  });
}

function splitHostPort(listen: string): [string, number] {
  const at = listen.lastIndexOf(':');
  const port = Number(listen.slice(at + 1));
  if (at < 0 || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--listen must be HOST:PORT, got "${listen}"`);
  }
  return [listen.slice(0, at) || '127.0.0.1', port];
}

main().catch((err: Error) => {
  logger.fatal({ err: err.message }, 'apiserver failed to start');
  process.exit(1);
});
