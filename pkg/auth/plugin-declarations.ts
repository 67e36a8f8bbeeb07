/**
 * The objects a plugin may declare in `extensions/` (docs/plugins.md): a label key
 * needs a prefix (`example.com/key`), and none under the platform's own
 * (`svc.run`, `*.svc.run`) but `svc.run/role-template`, `svc.run/hidden` and
 * `rbac.authorization.svc.run/aggregate-to-*`; a Role is a role template
 * (`svc.run/role-template: "true"`) named `<plugin name>-…`.
 */

import { AGGREGATE_TO_PREFIX, HIDDEN_LABEL, ROLE_TEMPLATE_LABEL } from '../../pkg/api/role-keys';

/** The platform label keys a plugin's objects may carry. */
const ALLOWED_PLATFORM_LABELS = new Set([ROLE_TEMPLATE_LABEL, HIDDEN_LABEL]);

/** The parts of an extension object the rules read. */
export interface DeclaredObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, unknown> };
}

/** Why plugin `pluginName` may not declare `object`, or undefined when it may. */
export function declarationProblem(pluginName: string, object: DeclaredObject): string | undefined {
  for (const key of Object.keys(object.metadata.labels ?? {})) {
    const problem = labelKeyProblem(key);
    if (problem) return problem;
  }
  if (isDeclaredRole(object)) {
    if (!object.metadata.name.startsWith(`${pluginName}-`)) return `a plugin's Role must be named "${pluginName}-…"`;
    if (object.metadata.labels?.[ROLE_TEMPLATE_LABEL] !== 'true') {
      return `a plugin's Role must be a role template (label ${ROLE_TEMPLATE_LABEL}: "true")`;
    }
  }
  return undefined;
}

/** Why a plugin's object may not carry the label `key`, or undefined when it may. */
export function labelKeyProblem(key: string): string | undefined {
  const slash = key.indexOf('/');
  if (slash < 0) return `label "${key}" has no prefix: use one of your own, such as example.com/${key}`;
  const prefix = key.slice(0, slash);
  const platform = prefix === 'svc.run' || prefix.endsWith('.svc.run');
  if (!platform || ALLOWED_PLATFORM_LABELS.has(key) || key.startsWith(AGGREGATE_TO_PREFIX)) return undefined;
  return `label "${key}" is under the platform's prefix ${prefix}`;
}

/** The label the plugins controller puts on every object it applies for a plugin: the plugin's name. */
export const PLUGIN_NAME_LABEL = 'plugin.svc.run/plugin-name';

/** Whether a declared object is a Role (the platform's, `v1alpha1`). */
export const isDeclaredRole = (object: Pick<DeclaredObject, 'apiVersion' | 'kind'>): boolean =>
  object.kind === 'Role' && object.apiVersion === 'v1alpha1';
