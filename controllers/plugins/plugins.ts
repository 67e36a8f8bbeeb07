import type { ApiObject } from '../../pkg/api/object';
import type { ResourceRef } from '../../pkg/client';

/** Where Plugin objects are served: `/apis/plugin.svc.run/v1alpha1/plugins`. */
export const PLUGINS: ResourceRef = { group: 'plugin.svc.run', version: 'v1alpha1', plural: 'plugins', kind: 'Plugin' };

/** Where Roles are served, the kind plugins declare most: `/api/v1alpha1/roles`. */
export const ROLES: ResourceRef = { group: '', version: 'v1alpha1', plural: 'roles', kind: 'Role' };

/** The label the controller puts on every object it applies for a plugin: its value is the plugin's name. */
export { PLUGIN_NAME_LABEL } from '../../pkg/auth/plugin-declarations';

/** The finalizer that holds a Plugin until its extension objects are deleted. */
export const PLUGIN_EXTENSIONS_FINALIZER = 'plugin.svc.run/extensions';

/** The condition the controller writes on a Plugin: whether every extension object is applied. */
export const EXTENSIONS_CONDITION = 'ExtensionsApplied';

/** One applied extension object, as `status.extensions` lists it. */
export interface ExtensionRef {
  apiVersion: string;
  kind: string;
  name: string;
}

/** One condition of a Plugin's status. */
export interface PluginCondition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
  lastTransitionTime: string;
}

/** A `Plugin` object as the controller reads it; the status is written by the apiserver's plugin host and by this controller. */
export interface Plugin extends ApiObject {
  spec?: { enabled?: boolean } & Record<string, unknown>;
  status?: {
    phase?: string;
    message?: string;
    conditions?: PluginCondition[];
    extensions?: ExtensionRef[];
  } & Record<string, unknown>;
}

/** `Role "people-editor"`: how messages name an extension object. */
export const describeExtension = (ref: ExtensionRef): string => `${ref.kind} "${ref.name}"`;
