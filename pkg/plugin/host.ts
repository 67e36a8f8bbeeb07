import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ApiObject } from '../api/object';
import { methodNotAllowed, notFound, StatusError } from '../api/errors';
import type { SchemeManager } from '../registry/scheme';
import type { RouteTable } from '../apiserver/routes';
import type { RequestContext } from '../apiserver/context';
import type { Logger } from '../util/log';
import type { Storage } from '../storage/interface';
import { StorageMirror } from '../registry/mirror';
import { storageTypeOf } from '../registry/model';
import { sendJson } from '../apiserver/respond';
import { unmetRequirement, type ExtensionObject, type PluginManifest } from './manifest';
import { PluginFolderSync, type FolderSyncTarget, type Settling } from './folder-sync';
import type { LoadedSource } from './plugin-source';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from './tar-reader';
import { awaitsAnyHost, notInstalledStatus } from './not-installed';
import { PLUGIN_KIND } from './plugin-kind';
import { PluginWorker, type PluginWorkerHost } from './plugin-worker';
import type { ApiAnswer, ApiCall, PluginWorkerData } from './protocol';
import { asCaller, asPlugin, oversizedCall } from './api-call';
import { LogLimiter } from './log-limiter';
import { InFlight } from './in-flight';
import type { PluginIdentities } from '../auth/plugin-identities';
import type { UserInfo } from '../auth/user';
import type { ConsolePlugins } from '../apiserver/console-plugins';
import type { LoadedPlugin } from './loaded-plugin';
import { PluginModels } from './plugin-models';
import { PluginRoutes } from './plugin-routes';
import { PluginObjects } from './plugin-objects';

/** How the plugin host runs plugins (the apiserver's `--plugins-dir` and related flags). */
export interface PluginHostOptions {
  /** The folder of plugin folders; absent: the built-in plugins only. */
  pluginsDir?: string;
  /** The platform's own modules (pkg/plugin/builtin.ts), loaded before the folder's plugins. */
  builtins?: PluginManifest[];
  /** The platform's version, checked against each plugin's `spec.requires`. */
  platformVersion: string;
  startTimeoutMs: number;
  routeTimeoutMs: number;
  maxBodyBytes: number;
  /** How long `stop(ctx)` may take at shutdown; default 5 s. */
  stopTimeoutMs?: number;
  /** The memory limit of each plugin's worker, its heap and its Buffers together; default 256 MiB. */
  memoryMb?: number;
  /** Log lines a plugin may write a second; default 100. */
  logLinesPerSecond?: number;
  /** Where plugins' `ctx.client` reaches the apiserver, and who it is there; without them plugins get no client. */
  api?: {
    url: string;
    identities: PluginIdentities;
    /**
     * Answers `ctx.client`'s requests in process (the apiserver's pipeline, no connection), and `req.client`'s as
     * `caller`; absent: `ctx.client` goes over HTTP and there is no `req.client`.
     */
    inProcess?: (call: ApiCall, caller?: UserInfo) => Promise<ApiAnswer>;
  };
  /** How long the index functions of one write may run, together; default 500 ms. */
  indexFunctionTimeoutMs?: number;
  /** The heap limit of the isolate running one model's index functions; default 64 MiB. */
  indexFunctionMemoryMb?: number;
  /** The limits on what a `.tgz` in the plugins folder unpacks to; each left out keeps its default (256 MiB, 10,000). */
  archiveLimits?: Partial<ArchiveLimits>;
  /** How often the plugins folder is scanned besides on file system events; default 5 s. */
  rescanIntervalMs?: number;
  /** Where a STARTED plugin's console pages (`spec.console`) are made known, until it stops. */
  consolePlugins?: ConsolePlugins;
}

/**
 * The plugin host (docs/plugins.md): loads the plugins folder and follows its
 * changes (a plugin added is installed, changed is reloaded, removed is
 * uninstalled), stores one `Plugin` object per plugin, and follows those
 * objects through their watch:
 * a plugin whose `spec.enabled` is true runs its `start(ctx)` in a worker
 * thread of its own, and the models and routes it registers are served; one
 * set to false (or whose object is deleted) is stopped and they go away. A
 * plugin that fails is unloaded; the apiserver keeps serving. Also serves
 * `GET …/plugins/<name>/extensions`, the plugin's `extensions/` objects, which
 * the plugin controller applies. The jobs around the lifecycle are its parts':
 * PluginRoutes (routes), PluginModels (models), PluginObjects (the Plugin
 * object), PluginWorker (the worker thread).
 */
export class PluginHost {
  private readonly plugins = new Map<string, LoadedPlugin>();
  private readonly models: PluginModels;
  private readonly pluginRoutes: PluginRoutes;
  private readonly objects: PluginObjects;
  private readonly mirror: StorageMirror;
  /** Absent without a plugins folder: the built-in plugins only. */
  private readonly folder: PluginFolderSync | undefined;
  /** Uninstalls under way, by plugin name: installing the same name again waits for them. */
  private readonly leaving = new Map<string, Promise<void>>();
  /** Installs under way (their Plugin object stored, the plugin not yet known): not "not installed". */
  private readonly installing = new Set<string>();
  private removeExtensionsRoute: (() => void) | undefined;
  private stopping = false;

  constructor(
    schemes: SchemeManager,
    private readonly routes: RouteTable,
    storage: Storage,
    private readonly log: Logger,
    private readonly options: PluginHostOptions,
  ) {
    this.mirror = new StorageMirror(storage, storageTypeOf(PLUGIN_KIND), log);
    this.models = new PluginModels(schemes, storage, options);
    this.pluginRoutes = new PluginRoutes(routes, (key) => this.models.owner(key), options);
    this.objects = new PluginObjects(schemes, log, options);
    // Absolute, so that a plugin's index.js is found whatever the worker's working directory.
    this.folder =
      options.pluginsDir === undefined
        ? undefined
        : new PluginFolderSync(resolve(options.pluginsDir), this.folderTarget(), log, {
            debounceMs: 300,
            rescanMs: options.rescanIntervalMs ?? 5000,
            archiveLimits: archiveLimits(options.archiveLimits),
          });
  }

  /** Loads every plugin in the folder and starts the enabled ones; resolves when each is STARTED, STOPPED or FAILED. */
  async start(): Promise<void> {
    const settling: Promise<void>[] = [];
    for (const manifest of this.options.builtins ?? [])
      settling.push((await this.install(`builtin:${manifest.name}`, { manifest })).settled);
    this.removeExtensionsRoute = this.routes.add(
      {
        group: PLUGIN_KIND.group,
        version: PLUGIN_KIND.version,
        resource: PLUGIN_KIND.plural,
        subresource: 'extensions',
      },
      async (ctx) => this.serveExtensions(ctx),
    );
    await this.mirror.start();
    this.mirror.subscribe((name, _previous, current) => void this.follow(name, current));
    if (this.folder) {
      settling.push((await this.folder.scan()).settled);
      await this.folder.uninstallOrphans();
      this.folder.watch();
    } else {
      for (const name of this.folderTarget().storedPlugins()) if (!this.plugins.has(name)) this.uninstall(name);
    }
    await Promise.all(settling);
  }

  /** Runs each plugin's `stop(ctx)` (bounded) and ends its worker. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.folder?.stop();
    this.mirror.stop();
    this.removeExtensionsRoute?.();
    await Promise.all([...this.plugins.values()].map((plugin) => this.halt(plugin)));
    await Promise.all(this.leaving.values());
    for (const plugin of this.plugins.values()) removeUnpacked(plugin);
  }

  private folderTarget(): FolderSyncTarget {
    const find = (path: string) => [...this.plugins.values()].find((p) => p.source === path);
    return {
      installedFrom: (path) => find(path)?.manifest.name,
      sourceOf: (name) => this.plugins.get(name)?.source,
      install: (path, loaded) => this.install(path, loaded),
      reload: (name, loaded) => this.reload(this.plugins.get(name)!, loaded),
      uninstall: (name) => this.uninstall(name),
      storedPlugins: () => [...this.mirror.values()].flatMap((o) => (o.metadata.name ? [o.metadata.name] : [])),
    };
  }

  /** Stores the plugin's `Plugin` object and follows it; the plugin is known to the host only once that worked. */
  private async install(source: string, loaded: LoadedSource): Promise<Settling> {
    const { manifest } = loaded;
    await this.leaving.get(manifest.name);
    let stored: ApiObject;
    this.installing.add(manifest.name);
    try {
      stored = await this.objects.save(manifest);
    } catch (err) {
      this.log.error({ plugin: manifest.name, err }, 'could not store the Plugin object; the plugin is not started');
      return { settled: Promise.resolve() };
    } finally {
      this.installing.delete(manifest.name);
    }
    const plugin: LoadedPlugin = {
      manifest,
      source,
      refused: loaded.refused,
      unpackedDir: loaded.unpackedDir,
      requests: new InFlight(),
      routes: [],
      routeRemovers: new Map(),
      models: [],
      indexWorkerClosers: new Map(),
      logs: new LogLimiter(this.options.logLinesPerSecond ?? 100),
      statusWrites: Promise.resolve(),
      transitions: Promise.resolve(),
      warnings: [],
    };
    this.plugins.set(manifest.name, plugin);
    return { settled: this.follow(manifest.name, stored) };
  }

  /** Swaps in the plugin's new content: stops it, stores the new spec, and starts it again if it is enabled. */
  private reload(plugin: LoadedPlugin, loaded: LoadedSource): Promise<void> {
    plugin.transitions = plugin.transitions.then(async () => {
      if (this.stopping) return;
      await this.halt(plugin);
      removeUnpacked(plugin);
      Object.assign(plugin, { manifest: loaded.manifest, refused: loaded.refused, unpackedDir: loaded.unpackedDir });
      this.log.info({ plugin: plugin.manifest.name, version: plugin.manifest.version }, 'plugin changed; reloading');
      try {
        await this.objects.save(loaded.manifest);
      } catch (err) {
        this.log.error({ plugin: plugin.manifest.name, err }, 'could not update the Plugin object');
      }
      if (plugin.wanted) await this.run(plugin);
    });
    return plugin.transitions;
  }

  /**
   * Uninstalls a plugin removed from the folder: stops it and deletes its
   * `Plugin` object (the plugin controller's finalizer holds the object
   * until the plugin's extension objects are deleted).
   */
  private uninstall(name: string): void {
    const plugin = this.plugins.get(name);
    this.plugins.delete(name);
    if (plugin) plugin.wanted = false;
    const done = (plugin?.transitions ?? Promise.resolve())
      .then(async () => {
        if (plugin) await this.halt(plugin);
        if (plugin) removeUnpacked(plugin);
        await this.objects.delete(name);
        this.log.info({ plugin: name }, 'plugin uninstalled: it is no longer in the plugins folder');
      })
      .catch((err: unknown) => this.log.error({ plugin: name, err }, 'could not uninstall the plugin'))
      .finally(() => {
        if (this.leaving.get(name) === done) this.leaving.delete(name);
      });
    this.leaving.set(name, done);
  }

  /**
   * Brings the plugin in line with its `Plugin` object: started when
   * `spec.enabled` is true, stopped when it is false or the object is deleted.
   * Resolves once the change (if any) is done.
   */
  private follow(name: string, object: ApiObject | undefined): Promise<void> {
    const plugin = this.plugins.get(name);
    if (!plugin) return this.markNotInstalled(name, object);
    const spec = object?.spec as Record<string, unknown> | undefined;
    const wanted = object !== undefined && !object.metadata.deletionTimestamp && spec?.enabled !== false;
    if (plugin.wanted === wanted) return plugin.transitions;
    const first = plugin.wanted === undefined;
    plugin.wanted = wanted;
    plugin.transitions = plugin.transitions.then(async () => {
      if (this.stopping) return;
      if (wanted) return this.run(plugin);
      if (!first) await this.halt(plugin);
      if (object) await this.objects.setPhase(plugin, 'STOPPED', 'disabled: spec.enabled is false');
    });
    return plugin.transitions;
  }

  /**
   * A Plugin object that names no plugin this host has (created through the API) and that no host has taken up gets
   * the not-installed status (PENDING, `Ready` False `NotInstalled`), so that it does not sit without a phase.
   */
  private async markNotInstalled(name: string, object: ApiObject | undefined): Promise<void> {
    if (this.stopping || this.installing.has(name) || this.leaving.has(name) || !awaitsAnyHost(object)) return;
    try {
      // Checked again on the stored object: a host that has the plugin may have written its phase meanwhile.
      await this.objects
        .store()
        .patch(
          name,
          (current) => (awaitsAnyHost(current) ? { ...current, status: notInstalledStatus(name) } : current),
          {},
          'status',
        );
    } catch (err) {
      if (!(err instanceof StatusError) || err.code !== 404)
        this.log.error({ plugin: name, err }, 'could not write the Plugin status');
    }
  }

  /** Stops the plugin's worker (its `stop(ctx)` bounded by the stop timeout) and takes its models and routes away. */
  private async halt(plugin: LoadedPlugin): Promise<void> {
    const worker = plugin.worker;
    plugin.worker = undefined;
    this.options.consolePlugins?.delete(plugin.manifest.name);
    // Its identity outlives the routes and models until stop(ctx) is done: stop may still use ctx.client.
    this.unload(plugin, { keepIdentity: true });
    // New requests find no route (404); those under way finish first, each bounded by the route timeout anyway.
    if (!(await plugin.requests.settled(this.options.routeTimeoutMs))) {
      this.log.warn(
        { plugin: plugin.manifest.name, requests: plugin.requests.size },
        'plugin stopped with requests under way',
      );
    }
    await worker?.stop(this.options.stopTimeoutMs ?? 5000);
    this.options.api?.identities.revoke(plugin.manifest.name);
    if (worker) this.log.info({ plugin: plugin.manifest.name }, 'plugin stopped');
  }

  /** Starts the plugin's worker: STARTING, then STARTED or FAILED. */
  private async run(plugin: LoadedPlugin): Promise<void> {
    const manifest = plugin.manifest;
    const refused = plugin.refused ?? unmetRequirement(manifest, this.options.platformVersion);
    if (refused) return this.objects.setPhase(plugin, 'FAILED', refused);
    await this.objects.setPhase(plugin, 'STARTING', '');
    if (this.stopping) return;
    plugin.warnings = [];
    const api = this.apiAccess(manifest.name);
    const worker = new PluginWorker(
      { name: manifest.name, version: manifest.version, settings: manifest.settings, main: manifest.main, api },
      this.workerHost(plugin, api?.token),
      { startTimeoutMs: this.options.startTimeoutMs, memoryMb: this.options.memoryMb ?? 256 },
    );
    plugin.worker = worker;
    try {
      await worker.start();
    } catch (err) {
      // Halted while starting (the apiserver stopping): not a failure of the plugin's.
      if (this.stopping || plugin.worker !== worker) return;
      this.unload(plugin);
      this.log.warn({ plugin: manifest.name, reason: (err as Error).message }, 'plugin failed to start');
      return this.objects.setPhase(plugin, 'FAILED', (err as Error).message);
    }
    await this.models.indexesBuilt(plugin);
    if (plugin.worker !== worker) return;
    this.log.info({ plugin: manifest.name, version: manifest.version }, 'plugin started');
    this.publishConsole(manifest);
    await this.objects.setPhase(plugin, 'STARTED', plugin.warnings.join('; '));
  }

  /** Makes a started plugin's console pages known (listed, and their files served). */
  private publishConsole(manifest: PluginManifest): void {
    if (!manifest.console) return;
    const displayName = manifest.spec.displayName;
    this.options.consolePlugins?.set({
      name: manifest.name,
      version: manifest.version,
      displayName: typeof displayName === 'string' ? displayName : undefined,
      dir: manifest.dir,
      ...manifest.console,
    });
  }

  /** A token for this start of the plugin's `ctx.client` (the previous one stops working). */
  private apiAccess(name: string): PluginWorkerData['api'] {
    const api = this.options.api;
    if (!api) return undefined;
    // The apiserver's own listener: its certificate need not name the address it is reached on.
    return {
      server: api.url,
      token: api.identities.issue(name),
      insecureSkipTlsVerify: api.url.startsWith('https:'),
      inProcess: api.inProcess !== undefined,
    };
  }

  private workerHost(plugin: LoadedPlugin, token: string | undefined): PluginWorkerHost {
    const name = plugin.manifest.name;
    const log = this.log.child({ plugin: name });
    const inProcess = this.options.api?.inProcess;
    return {
      callApi:
        inProcess && token !== undefined
          ? async (call, caller) =>
              oversizedCall(call, this.options.maxBodyBytes) ??
              (caller ? inProcess(asCaller(call), caller) : inProcess(asPlugin(call, token)))
          : undefined,
      log: (level, message, fields) => {
        const { allowed, droppedBefore } = plugin.logs.take();
        if (droppedBefore)
          log.warn({ dropped: droppedBefore }, 'plugin log lines dropped: more than the limit a second');
        if (!allowed) return;
        // The plugin's fields never replace the apiserver's own (`plugin`, `component`).
        const { plugin: _plugin, component: _component, ...rest } = fields ?? {};
        log[level](rest, message);
      },
      registerModel: async (spec, indexes) => {
        await this.models.register(plugin, spec, indexes);
        // Its own identity may do anything on the model it serves (docs/adr/0012-plugin-identity.md).
        const names = spec.names as { plural: string };
        this.options.api?.identities.allowModel(name, spec.group as string, names.plural);
      },
      registerRoute: (routeId, method, path, accept, contentTypes) =>
        this.pluginRoutes.register(plugin, { routeId, method, path, accept, contentTypes }),
      warn: (message) => {
        log.warn({ reason: message }, 'plugin declaration ignored');
        plugin.warnings.push(message);
      },
      crashed: (message) => {
        this.unload(plugin);
        log.error({ reason: message }, 'plugin failed');
        void this.objects.setPhase(plugin, 'FAILED', message);
      },
    };
  }

  /** Takes the plugin's routes and models out of service and ends its worker. */
  private unload(plugin: LoadedPlugin, options: { keepIdentity?: boolean } = {}): void {
    this.pluginRoutes.unmount(plugin);
    this.models.unserve(plugin);
    if (!options.keepIdentity) this.options.api?.identities.revoke(plugin.manifest.name);
    void plugin.worker?.terminate();
  }

  /** The objects in plugin `name`'s `extensions/` folder as loaded; undefined when no such plugin is installed. */
  extensionsOf(name: string): ExtensionObject['object'][] | undefined {
    return this.plugins.get(name)?.manifest.extensions.map((e) => e.object);
  }

  /** `GET …/plugins/<name>/extensions`: `{"items": [...]}`, the objects in the plugin's `extensions/` folder. */
  private async serveExtensions(ctx: RequestContext): Promise<void> {
    if (ctx.info.verb !== 'get') throw methodNotAllowed(ctx.req.method ?? 'GET', ctx.info.path);
    const plugin = this.plugins.get(ctx.info.name);
    if (!plugin) throw notFound({ group: PLUGIN_KIND.group, resource: PLUGIN_KIND.plural, name: ctx.info.name });
    sendJson(ctx.res, 200, { items: this.extensionsOf(ctx.info.name) });
  }
}

/** The archive limits given, each left out (or undefined) replaced by its default. */
function archiveLimits(given: Partial<ArchiveLimits> = {}): ArchiveLimits {
  return {
    maxBytes: given.maxBytes ?? DEFAULT_ARCHIVE_LIMITS.maxBytes,
    maxEntries: given.maxEntries ?? DEFAULT_ARCHIVE_LIMITS.maxEntries,
  };
}

function removeUnpacked(plugin: LoadedPlugin): void {
  if (plugin.unpackedDir) rmSync(plugin.unpackedDir, { recursive: true, force: true });
  plugin.unpackedDir = undefined;
}
