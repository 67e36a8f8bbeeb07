import { isPlatformGroup as isReservedGroup } from '../registry/model-validation';
import type { Model } from '../registry/model';
import type { SchemeManager } from '../registry/scheme';
import type { Storage } from '../storage/interface';
import type { LoadedPlugin } from './loaded-plugin';
import { pluginModel, type PluginModel } from './plugin-model';
import type { DeclaredIndex } from './protocol';

/** The limits of the isolates running plugin models' index functions. */
export interface PluginModelLimits {
  /** How long the index functions of one write may run, together; default 500 ms. */
  indexFunctionTimeoutMs?: number;
  /** The heap limit of the isolate running one model's index functions; default 64 MiB. */
  indexFunctionMemoryMb?: number;
}

/** Whether `group` is the platform's (empty or `*.svc.run`) to this plugin: a built-in one may serve them. */
const isPlatformGroup = (group: string, plugin: LoadedPlugin) => !plugin.manifest.builtin && isReservedGroup(group);

/**
 * The models plugins register with `ctx.schemes.register`: served by the
 * scheme manager under the plugin's name, one owner per model, taken out of
 * service (with the isolates of their index functions) when the plugin stops.
 */
export class PluginModels {
  /** `group/plural` → the plugin serving it. */
  private readonly modelOwners = new Map<string, string>();

  constructor(
    private readonly schemes: SchemeManager,
    private readonly storage: Storage,
    private readonly options: PluginModelLimits,
  ) {}

  /** The plugin serving the model `group/plural`, if one does. */
  owner(key: string): string | undefined {
    return this.modelOwners.get(key);
  }

  /** Serves a model the plugin registers; rejects with an Error saying what is wrong. */
  async register(plugin: LoadedPlugin, spec: Record<string, unknown>, indexes: DeclaredIndex[]): Promise<void> {
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

  /** Resolves once the indexes of the plugin's models are built over the stored objects (it is STARTING until then). */
  async indexesBuilt(plugin: LoadedPlugin): Promise<void> {
    const types = this.schemes
      .all()
      .filter((r) => plugin.models.includes(`${r.model.group}/${r.model.plural}`))
      .map((r) => r.store.type);
    await Promise.all(types.map((type) => this.storage.whenIndexesReady(type)));
  }

  /** Takes the plugin's models out of service and ends the isolates of their index functions. */
  unserve(plugin: LoadedPlugin): void {
    for (const key of plugin.models) {
      const [group, plural] = key.split('/');
      this.schemes.unregister(group, plural);
      this.modelOwners.delete(key);
    }
    plugin.models = [];
    for (const close of plugin.indexWorkerClosers.values()) close();
    plugin.indexWorkerClosers.clear();
  }
}

/**
 * A model in a platform group (empty or `*.svc.run`, docs/plugins.md) is refused, naming the group, before the model is
 * read: an empty group is the platform's, not a missing field.
 */
function refusePlatformGroup(plugin: LoadedPlugin, spec: Record<string, unknown>): void {
  const group = spec.group;
  if (typeof group !== 'string' || !isPlatformGroup(group, plugin)) return;
  const plural = (spec.names as Record<string, unknown> | undefined)?.plural;
  const what = typeof plural === 'string' && plural !== '' ? [plural, group].filter((p) => p !== '').join('.') : group;
  throw new Error(`model ${what}: group "${group}" belongs to the platform (empty or *.svc.run)`);
}
