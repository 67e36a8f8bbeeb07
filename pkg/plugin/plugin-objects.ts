import type { ApiObject } from '../api/object';
import { isNotFound } from '../api/errors';
import type { ResourceStore } from '../registry/resource-store';
import type { SchemeManager } from '../registry/scheme';
import type { Logger } from '../util/log';
import { resolve } from 'node:path';
import type { LoadedPlugin } from './loaded-plugin';
import { pluginFolders, withoutMachinePaths } from './machine-paths';
import { PLUGIN_API_VERSION, type PluginManifest } from './manifest';
import { PLUGIN_KIND, type PluginPhase } from './plugin-kind';

/**
 * The `Plugin` object of each plugin, as the host writes it: created or
 * brought up to date from `plugin.yaml`, its phase, message and `Ready`
 * condition, and deleted when the plugin is uninstalled.
 */
export class PluginObjects {
  constructor(
    private readonly schemes: SchemeManager,
    private readonly log: Logger,
    private readonly options: { pluginsDir?: string },
  ) {}

  /** Where Plugin objects are stored. */
  store(): ResourceStore {
    const registered = this.schemes.lookup(PLUGIN_KIND.group, PLUGIN_KIND.version, PLUGIN_KIND.plural);
    if (!registered) throw new Error('the Plugin kind is not registered');
    return registered.store;
  }

  /** Deletes the plugin's object; one already gone is fine. */
  async delete(name: string): Promise<void> {
    try {
      await this.store().delete(name, undefined);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /**
   * Creates the plugin's `Plugin` object, or brings its spec up to date with
   * `plugin.yaml`, keeping the stored `spec.enabled`: a plugin disabled through
   * the API stays disabled across restarts.
   */
  async save(manifest: PluginManifest): Promise<ApiObject> {
    const store = this.store();
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
      if (!isNotFound(err)) throw err;
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
  setPhase(plugin: LoadedPlugin, phase: PluginPhase, told: string): Promise<void> {
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
        this.store().patch(
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
