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
import type { ObjectRead, ObjectReadResult } from '../api/object-read';
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
import { ReconcileLoop } from '../controller/reconcile-loop';
import { ExponentialRateLimiter } from '../controller/rate-limiter';
import type { Reconciler, Request } from '../controller/reconciler';
import { KeySettling } from './key-settling';

/** A read the host leaves to the request path. */
const UNSERVED: ObjectReadResult = { unserved: true };

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
    /** With `inProcess`: answers `ctx.client`'s and `req.client`'s plain reads as values, for the caller given. */
    read?: (read: ObjectRead, caller: UserInfo) => Promise<ObjectReadResult>;
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

/** A plugin the folder (or the platform) has: where it comes from and its content as read. */
interface DesiredPlugin {
  source: string;
  loaded: LoadedSource;
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
 * the plugin controller applies.
 *
 * The lifecycle is a reconciler on the controller runtime's loop
 * (docs/adr/0050-plugin-lifecycle-reconciler.md): the folder and the Plugin
 * objects are the desired state, the running workers the actual one; every
 * change queues the plugin's name, one reconcile per name at a time, a failed
 * one retried with backoff. The jobs around it are its parts': PluginRoutes
 * (routes), PluginModels (models), PluginObjects (the Plugin object),
 * PluginWorker (the worker thread).
 */
export class PluginHost implements Reconciler {
  /** Actual: the plugins whose Plugin object is stored, running or not. */
  private readonly plugins = new Map<string, LoadedPlugin>();
  /** Desired: the plugins of the folder and the platform, by name. */
  private readonly desired = new Map<string, DesiredPlugin>();
  /** Plugins removed from the folder whose Plugin object is still to be deleted. */
  private readonly removed = new Set<string>();
  private readonly loop: ReconcileLoop;
  private readonly settling = new KeySettling();
  private readonly models: PluginModels;
  private readonly pluginRoutes: PluginRoutes;
  private readonly objects: PluginObjects;
  private readonly mirror: StorageMirror;
  /** Absent without a plugins folder: the built-in plugins only. */
  private readonly folder: PluginFolderSync | undefined;
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
    // Plugins start side by side, each name reconciled by one worker at a time.
    this.loop = new ReconcileLoop({
      name: 'plugin-host',
      reconciler: this,
      workers: 16,
      // A failed step (the Plugin object not stored, say) is retried per plugin: 5 ms doubling up to 30 s.
      rateLimiter: new ExponentialRateLimiter(5, 30_000),
      log: log.child({ controller: 'plugin-host' }),
    });
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
    this.mirror.subscribe((name) => this.enqueue(name));
    this.loop.start();
    const settling: Promise<void>[] = [];
    for (const manifest of this.options.builtins ?? [])
      settling.push(this.want(`builtin:${manifest.name}`, { manifest }).settled);
    if (this.folder) {
      settling.push((await this.folder.scan()).settled);
      await this.folder.uninstallOrphans();
      this.folder.watch();
    } else {
      for (const name of this.folderTarget().storedPlugins()) if (!this.desired.has(name)) this.unwant(name);
    }
    await Promise.all(settling);
  }

  /** Runs each plugin's `stop(ctx)` (bounded) and ends its worker. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.folder?.stop();
    this.mirror.stop();
    this.removeExtensionsRoute?.();
    const loopStopped = this.loop.stop();
    await Promise.all([...this.plugins.values()].map((plugin) => this.halt(plugin)));
    await loopStopped;
    this.settling.wakeAll();
    for (const plugin of this.plugins.values()) removeUnpacked(plugin);
    for (const { loaded } of this.desired.values()) if (loaded.unpackedDir) removeUnpacked(loaded);
  }

  /**
   * Brings one plugin in line with the folder and its Plugin object:
   * uninstalled when it left the folder; its Plugin object stored (and the
   * old worker stopped) when its content is new; started when `spec.enabled`
   * is true, stopped when it is false or the object is deleted. A plugin that
   * failed stays FAILED until its content or its object changes.
   */
  async reconcile({ name }: Request): Promise<void> {
    const seen = this.settling.began(name);
    try {
      if (!this.stopping) await this.converge(name);
    } finally {
      this.settling.ended(name, seen);
    }
  }

  private async converge(name: string): Promise<void> {
    const want = this.desired.get(name);
    if (!want) return this.convergeAbsent(name, this.plugins.get(name));
    const plugin = await this.installed(name, want);
    if (plugin && !this.stopping) await this.follow(plugin, this.mirror.get(name));
  }

  /** The plugin with the folder's content, its Plugin object stored; the old content's worker stopped first. */
  private async installed(name: string, want: DesiredPlugin): Promise<LoadedPlugin | undefined> {
    const current = this.plugins.get(name);
    if (current?.manifest === want.loaded.manifest) return current;
    if (current) await this.halt(current);
    // Stored before the plugin is known: a failure here is retried with backoff, the old content stopped.
    const stored = await this.objects.save(want.loaded.manifest);
    if (current) {
      if (current.unpackedDir !== want.loaded.unpackedDir) removeUnpacked(current);
      this.log.info({ plugin: name, version: want.loaded.manifest.version }, 'plugin changed; reloading');
    }
    const plugin = loadedPlugin(want, this.options.logLinesPerSecond ?? 100);
    this.plugins.set(name, plugin);
    await this.mirror.waitFor(stored.metadata.resourceVersion);
    return plugin;
  }

  /** Started when its Plugin object says `spec.enabled` (not false), stopped when it says false or is deleted. */
  private async follow(plugin: LoadedPlugin, object: ApiObject | undefined): Promise<void> {
    const spec = object?.spec as Record<string, unknown> | undefined;
    const wanted = object !== undefined && !object.metadata.deletionTimestamp && spec?.enabled !== false;
    if (plugin.wanted === wanted) return;
    const first = plugin.wanted === undefined;
    plugin.wanted = wanted;
    if (wanted) return this.run(plugin);
    if (!first) await this.halt(plugin);
    if (object) await this.objects.setPhase(plugin, 'STOPPED', 'disabled: spec.enabled is false');
  }

  /** A plugin the folder does not have: stopped and its Plugin object deleted when it left, else not installed. */
  private async convergeAbsent(name: string, plugin: LoadedPlugin | undefined): Promise<void> {
    if (plugin) {
      plugin.wanted = false;
      await this.halt(plugin);
      removeUnpacked(plugin);
      this.plugins.delete(name);
    }
    if (!this.removed.has(name)) return this.markNotInstalled(name, this.mirror.get(name));
    // The plugin controller's finalizer holds the object until the plugin's extension objects are deleted.
    await this.objects.delete(name);
    this.removed.delete(name);
    this.log.info({ plugin: name }, 'plugin uninstalled: it is no longer in the plugins folder');
  }

  /** Queues the plugin's name for a reconcile; `settled` resolves once it has been reconciled. */
  private enqueue(name: string): Settling {
    this.settling.asked(name);
    const settled = this.settling.settled(name);
    if (this.stopping) this.settling.wakeAll();
    else this.loop.add(name);
    return { settled };
  }

  /** The folder (or the platform) has this plugin, with this content. */
  private want(source: string, loaded: LoadedSource): Settling {
    const name = loaded.manifest.name;
    this.removed.delete(name);
    this.desired.set(name, { source, loaded });
    return this.enqueue(name);
  }

  /** The folder no longer has this plugin: it is uninstalled. */
  private unwant(name: string): void {
    this.desired.delete(name);
    this.removed.add(name);
    this.enqueue(name);
  }

  private folderTarget(): FolderSyncTarget {
    const find = (path: string) => [...this.desired.entries()].find(([, d]) => d.source === path)?.[0];
    return {
      installedFrom: (path) => find(path),
      sourceOf: (name) => this.desired.get(name)?.source,
      install: async (path, loaded) => this.want(path, loaded),
      reload: (name, loaded) => this.want(this.desired.get(name)?.source ?? name, loaded).settled,
      uninstall: (name) => this.unwant(name),
      storedPlugins: () => [...this.mirror.values()].flatMap((o) => (o.metadata.name ? [o.metadata.name] : [])),
    };
  }

  /**
   * A Plugin object that names no plugin this host has (created through the API) and that no host has taken up gets
   * the not-installed status (PENDING, `Ready` False `NotInstalled`), so that it does not sit without a phase.
   */
  private async markNotInstalled(name: string, object: ApiObject | undefined): Promise<void> {
    if (this.stopping || !awaitsAnyHost(object)) return;
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

  /**
   * How a plugin's worker reads as values: `req.client` as the route's caller, `ctx.client` as the identity its token
   * names while the token is valid. A token no longer valid (the plugin restarted or stopped) leaves the read to the
   * request path, which answers it as it answers any request bearing that token.
   */
  private reader(token: string): PluginWorkerHost['readApi'] {
    const api = this.options.api;
    const read = api?.read;
    if (!api || !read) return undefined;
    // The token's hash is taken once, not on every read; whether it is still valid is asked on every read.
    const pluginUser = api.identities.tokenUser(token);
    return (objectRead, caller) => {
      const user = caller ?? pluginUser();
      return user ? read(objectRead, user) : Promise.resolve(UNSERVED);
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
      readApi: inProcess && token !== undefined ? this.reader(token) : undefined,
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

function removeUnpacked(plugin: { unpackedDir?: string }): void {
  if (plugin.unpackedDir) rmSync(plugin.unpackedDir, { recursive: true, force: true });
  plugin.unpackedDir = undefined;
}

/** A plugin of the folder as the host runs it, not yet started. */
function loadedPlugin({ source, loaded }: DesiredPlugin, logLinesPerSecond: number): LoadedPlugin {
  return {
    manifest: loaded.manifest,
    source,
    refused: loaded.refused,
    unpackedDir: loaded.unpackedDir,
    requests: new InFlight(),
    routes: [],
    routeRemovers: new Map(),
    models: [],
    indexWorkerClosers: new Map(),
    logs: new LogLimiter(logLinesPerSecond),
    statusWrites: Promise.resolve(),
    warnings: [],
  };
}
