import type { InFlight } from './in-flight';
import type { LogLimiter } from './log-limiter';
import type { PluginManifest } from './manifest';
import type { PluginWorker } from './plugin-worker';
import type { RoutePattern } from './route-pattern';

/** One route a plugin declared, as the host serves it. */
export interface PluginRoute {
  routeId: number;
  method: string;
  pattern: RoutePattern;
  /** The media type the route answers; undefined: whatever is asked. */
  accept?: string;
  /** Body media types the route reads besides JSON and YAML (and, for PATCH, the patch types). */
  contentTypes: string[];
}

/** One plugin as the host runs it. */
export interface LoadedPlugin {
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
  /** What the plugin declared that was ignored, for the STARTED message. */
  warnings: string[];
}
