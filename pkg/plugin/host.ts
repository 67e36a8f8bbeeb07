import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ApiObject } from '../api/object';
import { internalError, methodNotAllowed, notFound, StatusError } from '../api/errors';
import type { SchemeManager } from '../registry/scheme';
import type { ResourceStore } from '../registry/resource-store';
import { isPlatformGroup as isReservedGroup } from '../registry/model-validation';
import { pluginModel, type PluginModel } from './plugin-model';
import type { RouteTable } from '../apiserver/routes';
import type { RequestContext } from '../apiserver/context';
import type { RequestInfo } from '../apiserver/request-info';
import type { Logger } from '../util/log';
import type { Storage } from '../storage/interface';
import { StorageMirror } from '../registry/mirror';
import { storageTypeOf, type Model } from '../registry/model';
import { sendJson } from '../apiserver/respond';
import { assertBodyType } from '../apiserver/body';
import { PLUGIN_API_VERSION, unmetRequirement, type PluginManifest } from './manifest';
import { PluginFolderSync, type FolderSyncTarget, type Settling } from './folder-sync';
import type { LoadedSource } from './plugin-source';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from './tar-reader';
import { PLUGIN_KIND, type PluginPhase } from './plugin-kind';
import { PluginWorker, type PluginWorkerHost } from './plugin-worker';
import type { DeclaredIndex, PluginWorkerData } from './protocol';
import { matchRoute, parseRoutePath, type RoutePattern } from './route-pattern';
import { isMediaType, pickByAccept } from './accept';
import { forwardedRequest, requestBody, routeFailure, writeAnswer } from './route-answer';
import { LogLimiter } from './log-limiter';
import { bodyTypesOf } from './route-body-types';
import { InFlight } from './in-flight';
import type { PluginIdentities } from '../auth/plugin-identities';
import { pluginFolders, withoutMachinePaths } from './machine-paths';
import type { ConsolePlugins } from '../apiserver/console-plugins';

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
  api?: { url: string; identities: PluginIdentities };
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

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

interface PluginRoute {
  routeId: number;
  method: string;
  pattern: RoutePattern;
  /** The media type the route answers; undefined: whatever is asked. */
  accept?: string;
  /** Body media types the route reads besides JSON and YAML (and, for PATCH, the patch types). */
  contentTypes: string[];
}

/** A route whose pattern a request's path matched, with the path parameters. */
interface RouteMatch {
  route: PluginRoute;
  params: Record<string, string>;
}

/** Throws unless a route's method is one served and its `accept` and `contentTypes` are media types. */
function checkRouteDeclaration(method: string, path: string, accept: string | undefined, contentTypes: string[]) {
  if (!METHODS.has(method))
    throw new Error(`route ${method} ${path}: the method must be one of ${[...METHODS].join(', ')}`);
  if (accept !== undefined && !isMediaType(accept))
    throw new Error(`route ${method} ${path}: accept "${accept}" is not a media type such as text/csv`);
  const notMediaType = contentTypes.find((type) => !isMediaType(type));
  if (notMediaType !== undefined)
    throw new Error(`route ${method} ${path}: content type "${notMediaType}" is not a media type such as text/csv`);
}

/** Whether `group` is the platform's (empty or `*.svc.run`) to this plugin: a built-in one may serve them. */
const isPlatformGroup = (group: string, plugin: LoadedPlugin) => !plugin.manifest.builtin && isReservedGroup(group);

/** One plugin as the host runs it. */
interface LoadedPlugin {
  manifest: PluginManifest;
  /** The folder or `.tgz` in the plugins folder the plugin comes from. */
  source: string;
  /** Why the plugin may not run although its manifest was read (an archive with a link, say). */
  refused?: string;
  /** Where a `.tgz` plugin was unpacked; removed with the plugin. */
  unpackedDir?: string;
  worker?: PluginWorker;
  /** Route requests being served: a plugin stopped or removed lets them finish before its worker ends. */
  requests: InFlight;
  routes: PluginRoute[];
  /** Removes each RouteTable entry (one per `group/version/resource`) this plugin owns. */
  routeRemovers: Map<string, () => void>;
  /** `group/plural` of each model the plugin registered. */
  models: string[];
  /** Ends the thread running a registered model's index functions, by `group/plural`. */
  indexWorkerClosers: Map<string, () => void>;
  logs: LogLimiter;
  statusWrites: Promise<void>;
  /** Whether the plugin should run, as its `Plugin` object last said; undefined until the object was read. */
  wanted?: boolean;
  /** Starts and stops of this plugin, one at a time, in order. */
  transitions: Promise<void>;
  /** What the plugin declared that was ignored, for the STARTED message. */
  warnings: string[];
}

/**
 * The plugin host (API.md §11): loads the plugins folder and follows its
 * changes (a plugin added is installed, changed is reloaded, removed is
 * uninstalled), stores one `Plugin` object per plugin, and follows those
 * objects through their watch:
 * a plugin whose `spec.enabled` is true runs its `start(ctx)` in a worker
 * thread of its own, and the models and routes it registers are served; one
 * set to false (or whose object is deleted) is stopped and they go away. A
 * plugin that fails is unloaded; the apiserver keeps serving. Also serves
 * `GET …/plugins/<name>/extensions`, the plugin's `extensions/` objects, which
 * the plugin controller applies.
 */
export class PluginHost {
  private readonly plugins = new Map<string, LoadedPlugin>();
  private readonly modelOwners = new Map<string, string>();
  private readonly routeOwners = new Map<string, string>();
  /** The routes a request's path matched when the route table asked (`accepts`), by its request info. */
  private readonly matched = new WeakMap<RequestInfo, RouteMatch[]>();
  private readonly mirror: StorageMirror;
  /** Absent without a plugins folder: the built-in plugins only. */
  private readonly folder: PluginFolderSync | undefined;
  /** Uninstalls under way, by plugin name: installing the same name again waits for them. */
  private readonly leaving = new Map<string, Promise<void>>();
  private removeExtensionsRoute: (() => void) | undefined;
  private stopping = false;

  constructor(
    private readonly schemes: SchemeManager,
    private readonly routes: RouteTable,
    private readonly storage: Storage,
    private readonly log: Logger,
    private readonly options: PluginHostOptions,
  ) {
    this.mirror = new StorageMirror(storage, storageTypeOf(PLUGIN_KIND), log);
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
    try {
      stored = await this.savePluginObject(manifest);
    } catch (err) {
      this.log.error({ plugin: manifest.name, err }, 'could not store the Plugin object; the plugin is not started');
      return { settled: Promise.resolve() };
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
        await this.savePluginObject(loaded.manifest);
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
        await this.deletePluginObject(name);
        this.log.info({ plugin: name }, 'plugin uninstalled: it is no longer in the plugins folder');
      })
      .catch((err: unknown) => this.log.error({ plugin: name, err }, 'could not uninstall the plugin'))
      .finally(() => {
        if (this.leaving.get(name) === done) this.leaving.delete(name);
      });
    this.leaving.set(name, done);
  }

  private async deletePluginObject(name: string): Promise<void> {
    try {
      await this.pluginStore().delete(name, undefined);
    } catch (err) {
      if (!(err instanceof StatusError) || err.code !== 404) throw err;
    }
  }

  /**
   * Brings the plugin in line with its `Plugin` object: started when
   * `spec.enabled` is true, stopped when it is false or the object is deleted.
   * Resolves once the change (if any) is done.
   */
  private follow(name: string, object: ApiObject | undefined): Promise<void> {
    const plugin = this.plugins.get(name);
    if (!plugin) return Promise.resolve();
    const spec = object?.spec as Record<string, unknown> | undefined;
    const wanted = object !== undefined && !object.metadata.deletionTimestamp && spec?.enabled !== false;
    if (plugin.wanted === wanted) return plugin.transitions;
    const first = plugin.wanted === undefined;
    plugin.wanted = wanted;
    plugin.transitions = plugin.transitions.then(async () => {
      if (this.stopping) return;
      if (wanted) return this.run(plugin);
      if (!first) await this.halt(plugin);
      if (object) await this.setPhase(plugin, 'STOPPED', 'disabled: spec.enabled is false');
    });
    return plugin.transitions;
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
    if (refused) return this.setPhase(plugin, 'FAILED', refused);
    await this.setPhase(plugin, 'STARTING', '');
    if (this.stopping) return;
    plugin.warnings = [];
    const worker = new PluginWorker(
      {
        name: manifest.name,
        version: manifest.version,
        settings: manifest.settings,
        main: manifest.main,
        api: this.apiAccess(manifest.name),
      },
      this.workerHost(plugin),
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
      return this.setPhase(plugin, 'FAILED', (err as Error).message);
    }
    await this.indexesBuilt(plugin);
    if (plugin.worker !== worker) return;
    this.log.info({ plugin: manifest.name, version: manifest.version }, 'plugin started');
    this.publishConsole(manifest);
    await this.setPhase(plugin, 'STARTED', plugin.warnings.join('; '));
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

  /** Resolves once the indexes of the plugin's models are built over the stored objects (it is STARTING until then). */
  private async indexesBuilt(plugin: LoadedPlugin): Promise<void> {
    const types = this.schemes
      .all()
      .filter((r) => plugin.models.includes(`${r.model.group}/${r.model.plural}`))
      .map((r) => r.store.type);
    await Promise.all(types.map((type) => this.storage.whenIndexesReady(type)));
  }

  /** A token for this start of the plugin's `ctx.client` (the previous one stops working). */
  private apiAccess(name: string): PluginWorkerData['api'] {
    const api = this.options.api;
    if (!api) return undefined;
    // The apiserver's own listener: its certificate need not name the address it is reached on.
    return { server: api.url, token: api.identities.issue(name), insecureSkipTlsVerify: api.url.startsWith('https:') };
  }

  private workerHost(plugin: LoadedPlugin): PluginWorkerHost {
    const name = plugin.manifest.name;
    const log = this.log.child({ plugin: name });
    return {
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
        await this.registerModel(plugin, spec, indexes);
        // Its own identity may do anything on the model it serves (docs/adr/0012-plugin-identity.md).
        const names = spec.names as { plural: string };
        this.options.api?.identities.allowModel(name, spec.group as string, names.plural);
      },
      registerRoute: (routeId, method, path, accept, contentTypes) =>
        this.registerRoute(plugin, { routeId, method, path, accept, contentTypes }),
      warn: (message) => {
        log.warn({ reason: message }, 'plugin declaration ignored');
        plugin.warnings.push(message);
      },
      crashed: (message) => {
        this.unload(plugin);
        log.error({ reason: message }, 'plugin failed');
        void this.setPhase(plugin, 'FAILED', message);
      },
    };
  }

  private async registerModel(
    plugin: LoadedPlugin,
    spec: Record<string, unknown>,
    indexes: DeclaredIndex[],
  ): Promise<void> {
    refusePlatformGroup(plugin, spec);
    const { model, close } = await this.modelOf(plugin, spec, indexes);
    const key = `${model.group}/${model.plural}`;
    try {
      await this.serveModel(plugin, model, key);
    } catch (err) {
      close();
      throw err;
    }
    plugin.indexWorkerClosers.get(key)?.();
    plugin.indexWorkerClosers.set(key, close);
  }

  private async serveModel(plugin: LoadedPlugin, model: Model, key: string): Promise<void> {
    const what = `model ${model.plural}.${model.group}`;
    const owner = this.modelOwners.get(key);
    if (owner && owner !== plugin.manifest.name) throw new Error(`${what}: already served by plugin "${owner}"`);
    const served = this.schemes.served(model.group, model.plural);
    if (!owner && served) throw new Error(`${what}: already served by ${served.owner ?? 'the platform'}`);
    try {
      await this.schemes.register(model, undefined, {
        platform: plugin.manifest.builtin,
        owner: `plugin "${plugin.manifest.name}"`,
      });
    } catch (err) {
      throw new Error(`${what}: ${(err as Error).message}`);
    }
    this.modelOwners.set(key, plugin.manifest.name);
    if (!plugin.models.includes(key)) plugin.models.push(key);
  }

  private async modelOf(
    plugin: LoadedPlugin,
    spec: Record<string, unknown>,
    indexes: DeclaredIndex[],
  ): Promise<PluginModel> {
    try {
      return await pluginModel(plugin.manifest.name, spec, indexes, {
        timeoutMs: this.options.indexFunctionTimeoutMs,
        memoryMb: this.options.indexFunctionMemoryMb,
      });
    } catch (err) {
      const names = spec.names as Record<string, unknown> | undefined;
      const named = typeof names?.plural === 'string' && typeof spec.group === 'string';
      throw new Error(
        named ? `model ${names.plural}.${spec.group}: ${(err as Error).message}` : (err as Error).message,
      );
    }
  }

  private registerRoute(
    plugin: LoadedPlugin,
    declared: { routeId: number; method: string; path: string; accept?: string; contentTypes?: string[] },
  ): void {
    const { routeId, method, path, accept, contentTypes = [] } = declared;
    const name = plugin.manifest.name;
    checkRouteDeclaration(method, path, accept, contentTypes);
    const pattern = parseRoutePath(path, plugin.manifest.builtin);
    const resourceKey = `${pattern.group}/${pattern.version}/${pattern.resource}`;
    const owner = this.routeOwners.get(resourceKey) ?? this.modelOwners.get(`${pattern.group}/${pattern.resource}`);
    if (owner && owner !== name)
      throw new Error(`route ${method} ${path}: /apis/${resourceKey} is served by plugin "${owner}"`);
    const shape = (p: RoutePattern) =>
      [p.group, p.version, ...p.segments.map((s) => (s.startsWith('{') ? '{}' : s))].join('/');
    const same = (r: PluginRoute) => r.method === method && shape(r.pattern) === shape(pattern) && r.accept === accept;
    if (plugin.routes.some(same))
      throw new Error(`route ${method} ${path}${accept ? ` (${accept})` : ''}: declared twice`);
    plugin.routes.push({ routeId, method, pattern, accept, contentTypes: contentTypes.map((t) => t.toLowerCase()) });
    if (!plugin.routeRemovers.has(resourceKey)) this.mount(plugin, pattern, resourceKey);
  }

  private mount(plugin: LoadedPlugin, pattern: RoutePattern, resourceKey: string): void {
    const remove = this.routes.add(
      {
        group: pattern.group,
        version: pattern.version,
        resource: pattern.resource,
        subresource: '*',
        accepts: (info, m) => {
          const found = this.findRoutes(plugin, m, info);
          if (found.length === 0) return false;
          // Kept for `serve`, which answers this same request: its route is matched once.
          this.matched.set(info, found);
          return true;
        },
      },
      (ctx) => plugin.requests.track(() => this.serve(plugin, ctx)),
    );
    plugin.routeRemovers.set(resourceKey, remove);
    this.routeOwners.set(resourceKey, plugin.manifest.name);
  }

  /** The routes answering a method and path (several when they answer different media types; one plugin may serve several groups). */
  private findRoutes(
    plugin: LoadedPlugin,
    method: string,
    info: Pick<RequestInfo, 'apiGroup' | 'apiVersion' | 'parts'>,
  ): RouteMatch[] {
    const found: RouteMatch[] = [];
    for (const route of plugin.routes) {
      if (route.method !== method || route.pattern.group !== info.apiGroup || route.pattern.version !== info.apiVersion)
        continue;
      const params = matchRoute(route.pattern, info.parts);
      if (params && (found.length === 0 || sameParams(found[0].params, params))) found.push({ route, params });
    }
    return found;
  }

  /** The route of this request, chosen by its `Accept` among those of its method and path; 406 when none fits. */
  private chooseRoute(plugin: LoadedPlugin, ctx: RequestContext, method: string) {
    // The match made for the route table, unless the plugin's routes changed since (a reload while authorising).
    const earlier = this.matched.get(ctx.info);
    const candidates =
      earlier && earlier.every((m) => plugin.routes.includes(m.route))
        ? earlier
        : this.findRoutes(plugin, method, ctx.info);
    if (candidates.length === 0) return undefined;
    const chosen = pickByAccept(
      ctx.req.headers.accept,
      candidates.map((c) => c.route.accept),
    );
    if (chosen >= 0) return candidates[chosen];
    const offered = candidates.map((c) => c.route.accept ?? '*/*').join(', ');
    throw new StatusError(
      406,
      'NotAcceptable',
      `this route answers ${offered}; the request accepts ${ctx.req.headers.accept}`,
    );
  }

  /** Forwards one request to the plugin's worker and writes its answer. */
  private async serve(plugin: LoadedPlugin, ctx: RequestContext): Promise<void> {
    const found = this.chooseRoute(plugin, ctx, ctx.req.method ?? 'GET');
    const worker = plugin.worker;
    if (!found || !worker) throw internalError();
    assertBodyType(ctx.req, bodyTypesOf(found.route));
    const body = requestBody(ctx.req, this.options.maxBodyBytes);
    const request = forwardedRequest(ctx, found.route.routeId, found.params);
    let answer;
    try {
      answer = await worker.request(request, this.options.routeTimeoutMs, body);
    } catch (err) {
      const where = { plugin: plugin.manifest.name, path: ctx.info.path, timeoutMs: this.options.routeTimeoutMs };
      throw body?.refusal() ?? routeFailure(err, { ...where, log: ctx.log });
    }
    const tooLarge = body?.refusal();
    if (tooLarge) throw tooLarge;
    await writeAnswer(ctx.res, answer, ctx.log);
    // A body the handler did not read is drained, so that the connection can serve the next request.
    if (!ctx.req.readableEnded) ctx.req.resume();
  }

  /** Takes the plugin's routes and models out of service and ends its worker. */
  private unload(plugin: LoadedPlugin, options: { keepIdentity?: boolean } = {}): void {
    for (const [key, remove] of plugin.routeRemovers) {
      remove();
      this.routeOwners.delete(key);
    }
    plugin.routeRemovers.clear();
    plugin.routes = [];
    for (const key of plugin.models) {
      const [group, plural] = key.split('/');
      this.schemes.unregister(group, plural);
      this.modelOwners.delete(key);
    }
    plugin.models = [];
    for (const close of plugin.indexWorkerClosers.values()) close();
    plugin.indexWorkerClosers.clear();
    if (!options.keepIdentity) this.options.api?.identities.revoke(plugin.manifest.name);
    void plugin.worker?.terminate();
  }

  private pluginStore(): ResourceStore {
    const registered = this.schemes.lookup(PLUGIN_KIND.group, PLUGIN_KIND.version, PLUGIN_KIND.plural);
    if (!registered) throw new Error('the Plugin kind is not registered');
    return registered.store;
  }

  /** `GET …/plugins/<name>/extensions`: `{"items": [...]}`, the objects in the plugin's `extensions/` folder. */
  private async serveExtensions(ctx: RequestContext): Promise<void> {
    if (ctx.info.verb !== 'get') throw methodNotAllowed(ctx.req.method ?? 'GET', ctx.info.path);
    const plugin = this.plugins.get(ctx.info.name);
    if (!plugin) throw notFound({ group: PLUGIN_KIND.group, resource: PLUGIN_KIND.plural, name: ctx.info.name });
    sendJson(ctx.res, 200, { items: plugin.manifest.extensions.map((e) => e.object) });
  }

  /**
   * Creates the plugin's `Plugin` object, or brings its spec up to date with
   * `plugin.yaml`, keeping the stored `spec.enabled`: a plugin disabled through
   * the API stays disabled across restarts.
   */
  private async savePluginObject(manifest: PluginManifest): Promise<ApiObject> {
    const store = this.pluginStore();
    try {
      const { object } = await store.patch(manifest.name, (current) => {
        const enabled = (current.spec as Record<string, unknown> | undefined)?.enabled;
        return {
          ...current,
          spec: { ...manifest.spec, enabled: typeof enabled === 'boolean' ? enabled : manifest.enabled },
        };
      });
      return object;
    } catch (err) {
      if (!(err instanceof StatusError) || err.code !== 404) throw err;
      const { object } = await store.create({
        apiVersion: PLUGIN_API_VERSION,
        kind: 'Plugin',
        metadata: { name: manifest.name },
        spec: manifest.spec,
      });
      return object;
    }
  }

  /**
   * Writes the plugin's phase, message and `Ready` condition (writes of one
   * plugin happen in order); the rest of the status (`extensions`, other
   * conditions) is the plugin controller's and is kept. The message shows no
   * absolute path of the machine (machine-paths.ts).
   */
  private setPhase(plugin: LoadedPlugin, phase: PluginPhase, told: string): Promise<void> {
    const { pluginsDir } = this.options;
    const folders = pluginFolders(pluginsDir && resolve(pluginsDir), plugin.source, plugin.unpackedDir);
    const message = withoutMachinePaths(told, folders);
    const ready = {
      type: 'Ready',
      status: phase === 'STARTED' ? 'True' : 'False',
      reason: phase,
      message,
      lastTransitionTime: new Date().toISOString(),
    };
    const statusOf = (current: ApiObject) => {
      const previous = (current.status ?? {}) as Record<string, unknown>;
      const conditions = Array.isArray(previous.conditions) ? (previous.conditions as { type?: unknown }[]) : [];
      return {
        ...previous,
        phase,
        message,
        extensions: previous.extensions ?? [],
        conditions: [ready, ...conditions.filter((c) => c.type !== 'Ready')],
      };
    };
    plugin.statusWrites = plugin.statusWrites
      .then(() =>
        this.pluginStore().patch(
          plugin.manifest.name,
          (current) => ({ ...current, status: statusOf(current) }),
          {},
          'status',
        ),
      )
      .then(
        () => undefined,
        (err: unknown) =>
          this.log.error({ plugin: plugin.manifest.name, phase, err }, 'could not write the Plugin status'),
      );
    return plugin.statusWrites;
  }
}

/**
 * A model in a platform group (API.md §11: empty or `*.svc.run`) is refused, naming the group, before the model is
 * read: an empty group is the platform's, not a missing field.
 */
function refusePlatformGroup(plugin: LoadedPlugin, spec: Record<string, unknown>): void {
  const group = spec.group;
  if (typeof group !== 'string' || !isPlatformGroup(group, plugin)) return;
  const plural = (spec.names as Record<string, unknown> | undefined)?.plural;
  const what = typeof plural === 'string' && plural !== '' ? [plural, group].filter((p) => p !== '').join('.') : group;
  throw new Error(`model ${what}: group "${group}" belongs to the platform (empty or *.svc.run)`);
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

const sameParams = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);
