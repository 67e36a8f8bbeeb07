import { openStorage } from '../storage';
import type { Storage } from '../storage/interface';
import { SchemeManager } from '../registry/scheme';
import { MODEL_KIND, modelHooks } from '../registry/models/model-kind';
import { ModelSync } from '../registry/models/model-sync';
import { LEASE_KIND } from '../registry/builtin/lease';
import type { Logger } from '../util/log';
import { ApiServer } from '../apiserver/server';
import type { HandlerSettings } from '../apiserver/handlers/deps';
import { registerCoreV1Routes } from '../apiserver/core-v1';
import { RouteTable } from '../apiserver/routes';
import { CONTROLLER_MANAGER_USER, setupSecurity, type SecurityConfig } from '../apiserver/security/setup';
import { setupAudit, type AuditConfig } from '../apiserver/audit/setup';
import {
  resolveServingCertificate,
  type ResolvedTls,
  type ServingCertificate,
  type TlsConfig,
} from '../apiserver/tls/serving-certificate';
import { PLUGIN_KIND } from '../plugin/plugin-kind';
import { PluginHost, type PluginHostOptions } from '../plugin/host';
import { PluginIdentities } from '../auth/plugin-identities';
import { inProcessCallerAuthenticator } from '../auth/authn/in-process-caller';
import { PluginTokenAuthenticator } from '../auth/authn/plugin-token';
import { PluginImpersonation } from '../auth/authn/plugin-impersonation';
import { unionAuthenticator } from '../auth/authn/union';
import { builtinPluginManifests } from '../plugin/builtin';
import { ConsolePlugins, registerConsolePluginRoute } from '../apiserver/console-plugins';
import { registerStorageMetrics } from '../apiserver/storage-metrics';
import { SVC_VERSION } from '../apiserver/version';

/** Everything `svc-apiserver` is configured with (flags or environment, see cmd/apiserver). */
export interface ApiServerConfig extends SecurityConfig, TlsConfig, AuditConfig {
  /** `host:port`; port 0 picks a free one. */
  listen: string;
  store: string;
  maxBodyBytes: number;
  watchTimeoutSeconds: number;
  watchRetention: number;
  /** How often a watch with `allowWatchBookmarks=true` gets a BOOKMARK; default 30. */
  watchBookmarkIntervalSeconds?: number;
  /** Longest a client may take to send a whole request before a 408; default 60. */
  requestTimeoutSeconds?: number;
  /** The folder of plugin folders loaded at start (docs/plugins.md); absent: no plugins but the built-in ones. */
  pluginsDir?: string;
  /** Whether the platform's own modules (`modules/`: the content module) are loaded; default true. */
  builtinPlugins?: boolean;
  /** How long a plugin's `start(ctx)` may take before it is FAILED; default 60. */
  pluginStartTimeoutSeconds?: number;
  /** How long a plugin's route handler may take before a 504; default 30. */
  pluginRouteTimeoutSeconds?: number;
  /** How long one write's plugin index functions may run before the write is refused; default 0.5. */
  pluginIndexTimeoutSeconds?: number;
  /** How often the plugins folder is scanned for changes besides file system events; default 5. */
  pluginRescanSeconds?: number;
  /** The memory limit of each plugin's worker, heap and Buffers together, in MiB; default 256. */
  pluginMemoryMb?: number;
  /** The heap limit of the isolate running one plugin model's index functions, in MiB; default 64. */
  pluginIndexMemoryMb?: number;
  /** How many MiB a `.tgz` in the plugins folder may unpack to; default 256. */
  pluginArchiveMaxMb?: number;
  /** How many entries a `.tgz` in the plugins folder may hold; default 10,000. */
  pluginArchiveMaxEntries?: number;
}

/** A running apiserver: its bound address and how to drain it. */
export interface RunningApiServer {
  /** `http://host:port` of `--listen`, or `https://…` when it serves TLS. */
  url: string;
  /** With `--tls-listen`: `https://host:port` of that second listener (`url` is then plain HTTP). */
  secureUrl?: string;
  /** With `--tls-self-signed`: the CA file that clients (a kubeconfig's `certificate-authority`) trust. */
  caFile?: string;
  port: number;
  server: ApiServer;
  schemes: SchemeManager;
  storage: Storage;
  /** The plugin host, unless there are no plugins at all; `plugins.started` settles once every plugin is STARTED, STOPPED or FAILED. */
  plugins?: { host: PluginHost; started: Promise<void> };
  /** Drains requests, ends watches, stops following Models, closes storage. */
  stop(): Promise<void>;
}

/**
 * Opens storage, registers the platform kinds, serves the stored Models and
 * starts listening. The one function `main.ts` and the tests call.
 */
export async function startApiServer(config: ApiServerConfig, log: Logger): Promise<RunningApiServer> {
  const [host, port] = splitHostPort(config.listen);
  const { secure, tls } = await servingTls(config, host, log);
  const storage = await openStorage(config.store, {
    watchRetention: config.watchRetention,
    // A write waiting for a replica (?ack=replica) is answered 503 within the request timeout.
    ackTimeoutMs: config.requestTimeoutSeconds === undefined ? undefined : config.requestTimeoutSeconds * 1000,
    log: log.child({ component: 'storage' }),
  });
  const schemes = new SchemeManager(storage, log.child({ component: 'schemes' }));
  await schemes.register(MODEL_KIND, undefined, { platform: true, hooks: modelHooks(schemes) });
  await schemes.register(LEASE_KIND, undefined, { platform: true });
  await schemes.register(PLUGIN_KIND, undefined, { platform: true });
  const models = new ModelSync(storage, schemes, log.child({ component: 'models' }));
  await models.start();
  const settings: Partial<HandlerSettings> = {
    maxBodyBytes: config.maxBodyBytes,
    watchTimeoutMs: config.watchTimeoutSeconds * 1000,
  };
  if (config.watchBookmarkIntervalSeconds !== undefined)
    settings.bookmarkIntervalMs = config.watchBookmarkIntervalSeconds * 1000;
  if (config.requestTimeoutSeconds !== undefined) settings.requestTimeoutMs = config.requestTimeoutSeconds * 1000;
  const routes = new RouteTable();
  registerCoreV1Routes(routes);
  const security = await setupSecurity(
    storage,
    schemes,
    routes,
    config,
    config.maxBodyBytes,
    log.child({ component: 'security' }),
  );
  const identities = new PluginIdentities();
  const consolePlugins = new ConsolePlugins();
  registerConsolePluginRoute(routes, consolePlugins);
  const server = new ApiServer({
    storage,
    schemes,
    routes,
    log,
    settings,
    authenticators: [
      // A plugin handler's call on behalf of its route's caller (in process only), a plugin's own token, the platform's credentials, and the plugins controller acting for a plugin.
      inProcessCallerAuthenticator,
      new PluginImpersonation(
        unionAuthenticator([new PluginTokenAuthenticator(identities), ...security.authenticators]),
        identities,
        (user) => config.authorizationMode !== 'RBAC' || user?.name === CONTROLLER_MANAGER_USER,
      ),
    ],
    authorizer: identities.authorizer(security.authorizer),
    watchableNames: security.watchableNames,
    conditions: security.conditions,
    accessChanges: security.accessChanges,
    denialDetails: security.denialDetails,
    consolePlugins,
  });
  registerStorageMetrics(server.metrics.registry, storage);
  server.audit = await setupAudit(config, storage, routes, server.metrics.registry, log.child({ component: 'audit' }));
  const { url, secureUrl } = await listenOn(server, [host, port], secure, tls);
  log.info(
    { url, secureUrl, store: redact(config.store), authorizationMode: config.authorizationMode, caFile: tls?.caFile },
    'apiserver listening',
  );
  const plugins = startPlugins(config, schemes, routes, storage, log, {
    // ctx.client's requests run through this server's pipeline in process, as the plugin, with no connection;
    // req.client's as the route's caller. Their gets and lists are answered as values, with the same authorisation.
    api: {
      url: selfUrl(url),
      identities,
      inProcess: (call, caller) => server.inject(call, caller),
      read: (read, caller) => server.readInProcess(read, caller),
    },
    consolePlugins,
  });
  if (plugins) security.pluginExtensions.of = (name) => plugins.host.extensionsOf(name);
  return {
    url,
    secureUrl,
    caFile: tls?.caFile,
    port: Number(new URL(url).port),
    server,
    schemes,
    storage,
    plugins,
    stop: async () => {
      if (plugins) {
        // Stopping ends a plugin still starting too (bounded by the stop timeout, not the start timeout).
        await plugins.host.stop();
        await plugins.started;
      }
      models.stop();
      security.stop();
      await server.shutdown();
      await server.audit?.recorder.close();
      await storage.close();
    },
  };
}

/**
 * Starts the built-in plugins and those of `--plugins-dir` in the background (none: undefined): the apiserver
 * serves meanwhile, and each plugin's phase tells how it went.
 */
function startPlugins(
  config: ApiServerConfig,
  schemes: SchemeManager,
  routes: RouteTable,
  storage: Storage,
  log: Logger,
  { api, consolePlugins }: { api: PluginHostOptions['api']; consolePlugins: ConsolePlugins },
): { host: PluginHost; started: Promise<void> } | undefined {
  const builtins = config.builtinPlugins === false ? [] : builtinPluginManifests();
  if (!config.pluginsDir && builtins.length === 0) return undefined;
  const host = new PluginHost(schemes, routes, storage, log.child({ component: 'plugins' }), {
    pluginsDir: config.pluginsDir,
    builtins,
    platformVersion: SVC_VERSION,
    maxBodyBytes: config.maxBodyBytes,
    startTimeoutMs: (config.pluginStartTimeoutSeconds ?? 60) * 1000,
    routeTimeoutMs: (config.pluginRouteTimeoutSeconds ?? 30) * 1000,
    api,
    consolePlugins,
    rescanIntervalMs: (config.pluginRescanSeconds ?? 5) * 1000,
    indexFunctionTimeoutMs: (config.pluginIndexTimeoutSeconds ?? 0.5) * 1000,
    memoryMb: config.pluginMemoryMb,
    indexFunctionMemoryMb: config.pluginIndexMemoryMb,
    archiveLimits: {
      maxBytes: config.pluginArchiveMaxMb === undefined ? undefined : config.pluginArchiveMaxMb * 1024 * 1024,
      maxEntries: config.pluginArchiveMaxEntries,
    },
  });
  const started = host
    .start()
    .catch((err: Error) => log.error({ err, pluginsDir: config.pluginsDir }, 'could not load the plugins'));
  return { host, started };
}

/** `127.0.0.1:8080` → ['127.0.0.1', 8080]; `[::1]:80` → ['::1', 80]. `flag` names the address in an error. */
export function splitHostPort(listen: string, flag = '--listen'): [string, number] {
  const at = listen.lastIndexOf(':');
  const port = Number(listen.slice(at + 1));
  if (at < 0 || listen.slice(at + 1) === '' || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${flag} must be HOST:PORT, got "${listen}"`);
  }
  return [listen.slice(0, at).replace(/^\[(.*)\]$/, '$1') || '127.0.0.1', port];
}

/** The `--tls-listen` address, when given, and the certificate (a self-signed one made now is logged). */
async function servingTls(
  config: ApiServerConfig,
  listenHost: string,
  log: Logger,
): Promise<{ secure?: [string, number]; tls?: ResolvedTls }> {
  const secure = config.tlsListen === undefined ? undefined : splitHostPort(config.tlsListen, '--tls-listen');
  const tls = await resolveServingCertificate(config, secure?.[0] ?? listenHost);
  if (tls?.created?.length)
    log.info({ dir: config.tlsSelfSignedDir, files: tls.created }, 'made a self-signed certificate');
  return { secure, tls };
}

/**
 * Listens on `--listen` and, with `--tls-listen`, on that address too. With both, the certificate is the second
 * one's and `--listen` stays plain HTTP; with one, `--listen` serves HTTPS when there is a certificate.
 */
async function listenOn(
  server: ApiServer,
  [host, port]: [string, number],
  secure: [string, number] | undefined,
  tls: ServingCertificate | undefined,
): Promise<{ url: string; secureUrl?: string }> {
  const pair = tls && { cert: tls.cert, key: tls.key };
  if (!secure) return { url: urlOf(pair ? 'https' : 'http', host, await server.listen(port, host, pair)) };
  const url = urlOf('http', host, await server.listen(port, host));
  return { url, secureUrl: urlOf('https', secure[0], await server.listen(secure[1], secure[0], pair)) };
}

/** `http://127.0.0.1:8080`, `https://[::1]:8443`. */
const urlOf = (scheme: 'http' | 'https', host: string, port: number) =>
  `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;

/** The URL this process reaches its own listener at: loopback when it listens on every address. */
const selfUrl = (url: string) => url.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//[::1]:');

/** A storage URL without its password, for logs. */
const redact = (url: string) => url.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
