import type { ApiClient } from '../../pkg/client';
import { controller, generationChanged, type Controller, type Manager } from '../../pkg/controller';
import { PLUGIN_NAME_LABEL, PLUGINS, ROLES, type Plugin } from './plugins';
import { PluginExtensionsReconciler } from './reconciler';

/**
 * The plugin controller: applies each STARTED plugin's `extensions/` objects,
 * lists them in its status, and deletes them when the plugin drops them, is
 * STOPPED or is deleted (docs/plugins.md).
 */
export { PluginExtensionsReconciler } from './reconciler';
export { declarationProblem, labelKeyProblem, type DeclaredObject } from '../../pkg/auth/plugin-declarations';
export {
  EXTENSIONS_CONDITION,
  PLUGIN_EXTENSIONS_FINALIZER,
  PLUGIN_NAME_LABEL,
  PLUGINS,
  type ExtensionRef,
  type Plugin,
  type PluginCondition,
} from './plugins';

/** The name the controller-manager runs it by: `--controllers plugins`. */
export const PLUGINS_CONTROLLER = 'plugins';

/**
 * Adds the plugin controller to a manager; every Plugin event queues the
 * plugin, and so does a change to the definition (not the status) or the
 * removal of a Role it applied, so that an edited or deleted role template is
 * put back.
 * @example
 * register(manager);
 * await manager.run(signal);
 */
export function register(manager: Manager, client: ApiClient = manager.client): Controller {
  return controller(PLUGINS_CONTROLLER, manager)
    .for(PLUGINS)
    .watches(ROLES, (role) => [role.metadata.labels?.[PLUGIN_NAME_LABEL] ?? ''].filter(Boolean), {
      labelSelector: PLUGIN_NAME_LABEL,
      predicates: [generationChanged],
    })
    .complete(new PluginExtensionsReconciler(client, manager.cacheFor<Plugin>(PLUGINS)));
}
