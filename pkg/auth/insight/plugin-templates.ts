import type { Role } from '../rbac';
import { declarationProblem, isDeclaredRole, PLUGIN_NAME_LABEL, type DeclaredObject } from '../plugin-declarations';
import type { RoleWrite } from './impact';

/**
 * The role writes a change of a Plugin comes to, as the plugins controller would make them: while the plugin is
 * applied (enabled and not deleted), each role template it declares that the platform accepts is written with the
 * plugin's label, and each role carrying its label that it no longer declares is deleted; once it is not (disabled,
 * deleted), every role carrying its label is deleted. Nothing is installed or run: `declared` is what the plugin's
 * `extensions/` hold as loaded.
 */
export function pluginRoleWrites(
  plugin: string,
  applied: boolean,
  declared: readonly DeclaredObject[],
  stored: Iterable<Role>,
): RoleWrite[] {
  const writes = new Map<string, Role | undefined>();
  for (const role of stored)
    if (role.metadata.labels?.[PLUGIN_NAME_LABEL] === plugin) writes.set(role.metadata.name!, undefined);
  if (!applied) return [...writes].map(([name, role]) => ({ name, role }));
  for (const object of declared) {
    if (!isDeclaredRole(object) || declarationProblem(plugin, object) !== undefined) continue;
    const labels = { ...object.metadata.labels, [PLUGIN_NAME_LABEL]: plugin } as Record<string, string>;
    writes.set(object.metadata.name, { ...(object as unknown as Role), metadata: { ...object.metadata, labels } });
  }
  return [...writes].map(([name, role]) => ({ name, role }));
}
