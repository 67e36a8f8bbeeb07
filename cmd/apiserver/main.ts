#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { startApiServer, type ApiServerConfig } from '../../pkg/server/app';
import { adminPasswordFileFor } from '../../pkg/apiserver/security/admin-password-file';
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

const positiveDuration = (value: string) => {
  const seconds = duration(value);
  if (!(seconds > 0)) throw new InvalidArgumentError('must be longer than 0');
  return seconds;
};

/** A size like `100MB`, `512K` or a number of bytes. */
const size = (value: string) => {
  const match = /^(\d+)\s*([KMG]i?B?|B)?$/i.exec(value.trim());
  if (!match) throw new InvalidArgumentError('must be a size like 100MB, 512K or a number of bytes');
  const unit = (match[2] ?? 'B').toUpperCase()[0];
  const bytes = Number(match[1]) * ({ B: 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 } as Record<string, number>)[unit];
  if (!(bytes > 0)) throw new InvalidArgumentError('must be larger than 0');
  return bytes;
};
const auditLevel = (value: string) => {
  if (!['None', 'Writes', 'All'].includes(value)) throw new InvalidArgumentError('must be None, Writes or All');
  return value as 'None' | 'Writes' | 'All';
};

/** Where `--tls-self-signed` without a directory keeps its files (where `make run` keeps them). */
const DEFAULT_SELF_SIGNED_DIR = 'data/tls';

const program = new Command('svc-apiserver')
  .description(
    'The svc API server: generated APIs for every registered model, backed by Redis, a local directory or memory.',
  )
  .addOption(new Option('--listen <host:port>', 'address to serve on').env('SVC_LISTEN').default('127.0.0.1:8080'))
  .addOption(
    new Option(
      '--tls-cert-file <file>',
      'serve HTTPS with this certificate (PEM, chain first to last); needs --tls-private-key-file',
    ).env('SVC_TLS_CERT_FILE'),
  )
  .addOption(
    new Option('--tls-private-key-file <file>', 'the private key (PEM) of --tls-cert-file').env(
      'SVC_TLS_PRIVATE_KEY_FILE',
    ),
  )
  .addOption(
    new Option(
      '--tls-self-signed [dir]',
      'serve HTTPS with a local CA and certificate made in <dir> on first use, reused later (ca.crt is the file a kubeconfig names)',
    )
      .env('SVC_TLS_SELF_SIGNED')
      .preset(DEFAULT_SELF_SIGNED_DIR),
  )
  .addOption(
    new Option(
      '--tls-listen <host:port>',
      'serve HTTPS here with the certificate of the flags above, and plain HTTP on --listen (else --listen serves HTTPS)',
    ).env('SVC_TLS_LISTEN'),
  )
  .addOption(
    new Option('--store <url>', 'storage: memory://, file://<dir> (durable, embedded) or redis://host:port/db')
      .env('SVC_STORE')
      .default('memory://'),
  )
  .addOption(
    new Option('--authorization-mode <mode>', 'RBAC (roles and bindings decide) or AlwaysAllow (everything is allowed)')
      .env('SVC_AUTHORIZATION_MODE')
      .choices(['AlwaysAllow', 'RBAC'])
      .default('RBAC'),
  )
  .addOption(
    new Option(
      '--admin-password-file <file>',
      "the super administrator's password on the first start, or on a start that finds no enabled super administrator (it restores admin); else SVC_ADMIN_PASSWORD, else a random one printed once",
    ).env('SVC_ADMIN_PASSWORD_FILE'),
  )
  .addOption(
    new Option(
      '--controller-manager-token-file <file>',
      'the token of the user system:controller-manager: read from the file, or made and written there (0600)',
    ).env('SVC_CONTROLLER_MANAGER_TOKEN_FILE'),
  )
  .addOption(
    new Option('--login-failures-per-user <n>', "failed logins in a minute that lock one user's password logins (429)")
      .env('SVC_LOGIN_FAILURES_PER_USER')
      .argParser(positiveInt)
      .default(10),
  )
  .addOption(
    new Option(
      '--login-failures-per-address <n>',
      'failed logins in a minute that lock password logins from one address (429)',
    )
      .env('SVC_LOGIN_FAILURES_PER_ADDRESS')
      .argParser(positiveInt)
      .default(100),
  )
  .addOption(
    new Option('--max-body-bytes <n>', 'largest request body accepted (413 beyond)')
      .env('SVC_MAX_BODY_BYTES')
      .argParser(positiveInt)
      .default(3 * 1024 * 1024),
  )
  .addOption(
    new Option('--watch-timeout <duration>', 'the server ends a watch after this long (e.g. 30m)')
      .env('SVC_WATCH_TIMEOUT')
      .argParser(duration)
      .default(1800, '30m'),
  )
  .addOption(
    new Option('--watch-retention <n>', 'changes per type kept replayable for watches')
      .env('SVC_WATCH_RETENTION')
      .argParser(positiveInt)
      .default(100000),
  )
  .addOption(
    new Option(
      '--watch-bookmark-interval <duration>',
      'how often a watch with allowWatchBookmarks=true gets a BOOKMARK',
    )
      .env('SVC_WATCH_BOOKMARK_INTERVAL')
      .argParser(positiveDuration)
      .default(30, '30s'),
  )
  .addOption(
    new Option('--audit-level <level>', 'None, Writes (writes, refusals and reviews) or All (also allowed reads)')
      .env('SVC_AUDIT_LEVEL')
      .argParser(auditLevel)
      .default('Writes'),
  )
  .addOption(
    new Option('--audit-log-path <file>', 'also write audit records there as JSON lines').env('SVC_AUDIT_LOG_PATH'),
  )
  .addOption(
    new Option('--audit-log-max-size <size>', 'rotate the audit log file at this size')
      .env('SVC_AUDIT_LOG_MAX_SIZE')
      .argParser(size)
      .default(100 * 1024 * 1024, '100MB'),
  )
  .addOption(
    new Option('--audit-log-max-files <n>', 'rotated audit log files kept')
      .env('SVC_AUDIT_LOG_MAX_FILES')
      .argParser(positiveInt)
      .default(10),
  )
  .addOption(
    new Option('--audit-retention <duration>', 'how long audit records are kept in the store (e.g. 7d)')
      .env('SVC_AUDIT_RETENTION')
      .argParser(positiveDuration)
      .default(7 * 24 * 3600, '7d'),
  )
  .addOption(
    new Option('--request-timeout <duration>', 'longest a client may take to send a whole request (408 beyond)')
      .env('SVC_REQUEST_TIMEOUT')
      .argParser(positiveDuration)
      .default(60, '60s'),
  )
  .addOption(
    new Option(
      '--plugins-dir <dir>',
      'load every plugin (folder or .tgz) in <dir>, following changes (see docs/plugins.md)',
    ).env('SVC_PLUGINS_DIR'),
  )
  .addOption(
    new Option('--plugin-start-timeout <duration>', 'a plugin whose start(ctx) takes longer is stopped and FAILED')
      .env('SVC_PLUGIN_START_TIMEOUT')
      .argParser(positiveDuration)
      .default(60, '60s'),
  )
  .addOption(
    new Option('--plugin-route-timeout <duration>', 'a plugin route handler that takes longer is answered with 504')
      .env('SVC_PLUGIN_ROUTE_TIMEOUT')
      .argParser(positiveDuration)
      .default(30, '30s'),
  )
  .addOption(
    new Option('--plugin-index-timeout <duration>', "how long one write's plugin index functions may run (500 beyond)")
      .env('SVC_PLUGIN_INDEX_TIMEOUT')
      .argParser(positiveDuration)
      .default(0.5, '500ms'),
  )
  .addOption(
    new Option(
      '--plugin-memory <MiB>',
      "a plugin's worker holding more (heap and Buffers together) is stopped and FAILED",
    )
      .env('SVC_PLUGIN_MEMORY')
      .argParser(positiveInt)
      .default(256),
  )
  .addOption(
    new Option('--plugin-index-memory <MiB>', "the heap of one plugin model's index functions (500 beyond)")
      .env('SVC_PLUGIN_INDEX_MEMORY')
      .argParser(positiveInt)
      .default(64),
  )
  .addOption(
    new Option('--plugin-archive-max-size <MiB>', 'a .tgz plugin unpacking to more is refused')
      .env('SVC_PLUGIN_ARCHIVE_MAX_SIZE')
      .argParser(positiveInt)
      .default(256),
  )
  .addOption(
    new Option('--plugin-archive-max-entries <n>', 'a .tgz plugin holding more entries is refused')
      .env('SVC_PLUGIN_ARCHIVE_MAX_ENTRIES')
      .argParser(positiveInt)
      .default(10000),
  )
  .addOption(
    new Option('--plugin-rescan-interval <duration>', 'how often the plugins folder is scanned for changes')
      .env('SVC_PLUGIN_RESCAN_INTERVAL')
      .argParser(positiveDuration)
      .default(5, '5s'),
  )
  .addHelpText(
    'after',
    '\nLogging: SVC_LOG_LEVEL=debug|info|warn|error (default info); SVC_LOG_FORMAT=json|text (default: text on a terminal, else JSON).\nFirst admin password: SVC_ADMIN_PASSWORD (the file flag wins).',
  )
  .parse();

async function main(): Promise<void> {
  const opts = program.opts<{
    auditLevel: 'None' | 'Writes' | 'All';
    auditLogPath?: string;
    auditLogMaxSize: number;
    auditLogMaxFiles: number;
    auditRetention: number;
    listen: string;
    store: string;
    authorizationMode: ApiServerConfig['authorizationMode'];
    maxBodyBytes: number;
    watchTimeout: number;
    watchRetention: number;
    adminPasswordFile?: string;
    controllerManagerTokenFile?: string;
    loginFailuresPerUser: number;
    loginFailuresPerAddress: number;
    watchBookmarkInterval: number;
    requestTimeout: number;
    tlsCertFile?: string;
    tlsPrivateKeyFile?: string;
    tlsSelfSigned?: string;
    tlsListen?: string;
    pluginsDir?: string;
    pluginStartTimeout: number;
    pluginRouteTimeout: number;
    pluginIndexTimeout: number;
    pluginRescanInterval: number;
    pluginMemory: number;
    pluginIndexMemory: number;
    pluginArchiveMaxSize: number;
    pluginArchiveMaxEntries: number;
  }>();
  const running = await startApiServer(
    {
      listen: opts.listen,
      store: opts.store,
      authorizationMode: opts.authorizationMode,
      maxBodyBytes: opts.maxBodyBytes,
      watchTimeoutSeconds: opts.watchTimeout,
      watchRetention: opts.watchRetention,
      adminPassword: adminPassword(opts.adminPasswordFile),
      // A one-time password printed into output that is not a terminal would stay in whatever log keeps it.
      adminPasswordOutFile:
        process.stdout.isTTY && process.stderr.isTTY ? undefined : adminPasswordFileFor(opts.store, process.cwd()),
      controllerManagerTokenFile: opts.controllerManagerTokenFile,
      loginLimits: { perUser: opts.loginFailuresPerUser, perAddress: opts.loginFailuresPerAddress },
      watchBookmarkIntervalSeconds: opts.watchBookmarkInterval,
      requestTimeoutSeconds: opts.requestTimeout,
      auditLevel: opts.auditLevel,
      auditLogPath: opts.auditLogPath,
      auditLogMaxBytes: opts.auditLogMaxSize,
      auditLogMaxFiles: opts.auditLogMaxFiles,
      auditRetentionMs: opts.auditRetention * 1000,
      tlsCertFile: opts.tlsCertFile,
      tlsPrivateKeyFile: opts.tlsPrivateKeyFile,
      tlsSelfSignedDir: opts.tlsSelfSigned,
      tlsListen: opts.tlsListen,
      pluginsDir: opts.pluginsDir,
      pluginStartTimeoutSeconds: opts.pluginStartTimeout,
      pluginRouteTimeoutSeconds: opts.pluginRouteTimeout,
      pluginIndexTimeoutSeconds: opts.pluginIndexTimeout,
      pluginRescanSeconds: opts.pluginRescanInterval,
      pluginMemoryMb: opts.pluginMemory,
      pluginIndexMemoryMb: opts.pluginIndexMemory,
      pluginArchiveMaxMb: opts.pluginArchiveMaxSize,
      pluginArchiveMaxEntries: opts.pluginArchiveMaxEntries,
    },
    logger,
  );
  // A parent that started this process with an IPC channel (cmd/local-up) learns where it serves, once bound.
  const listening = { listening: running.url, listeningSecure: running.secureUrl, caFile: running.caFile };
  process.send?.(listening, undefined, {}, () => process.disconnect?.());
  setupSignalHandler().addEventListener('abort', () => {
    logger.info('draining');
    running.stop().then(
      () => process.exit(0),
      (err: Error) => {
        logger.error({ err: err.message }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

/** The first admin password: the file's content (trimmed), else SVC_ADMIN_PASSWORD, else none (a random one is made). */
function adminPassword(file: string | undefined): string | undefined {
  if (file) return readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  return process.env.SVC_ADMIN_PASSWORD || undefined;
}

main().catch((err: Error) => {
  logger.fatal({ err: err.message }, 'apiserver failed to start');
  process.exit(1);
});
