import { groupByModule, includedBy, listAnnotation, type Role, type Rule } from './roles';
import { draftOfRule, isEditable, ruleOf, type RuleDraft } from './rule-draft';

const ANNOTATION = 'rbac.authorization.svc.run/';
/** The role nobody can change or build on usefully: it already holds everything. */
export const SUPER_ROLE = 'super-role';

/** What the role editor asks for. */
export interface RoleDraft {
  name: string;
  displayName: string;
  /** Where role lists group it (empty: "Other"). */
  module: string;
  /** The roles (templates mostly) it is built from: its `dependencies`. */
  chosen: string[];
  /** The role's own resource rules, as edited (conditions included). */
  rules: RuleDraft[];
  /** Own rules the editor does not edit (paths, named objects): kept as they are. */
  kept: Rule[];
}

/** The roles a role may be built from, grouped by module: not hidden, not super-role, not the role itself. */
export function buildingBlocks(roles: readonly Role[], editing?: string) {
  return groupByModule(roles.filter((r) => r.metadata.name !== SUPER_ROLE && r.metadata.name !== editing));
}

/** A role's effective rules and UI permissions as its status says, or its own while none is computed. */
function grantsOf(role: Role): { rules: Rule[]; uiPermissions: string[] } {
  return {
    rules: role.status?.rules ?? role.rules ?? [],
    uiPermissions: role.status?.uiPermissions ?? listAnnotation(role, 'ui-permissions'),
  };
}

/**
 * What a role built from `chosen` will grant: its own rules and UI permissions
 * (an existing role's, kept), and those of every chosen role and every role
 * they include, each once.
 */
export function resultingGrants(
  chosen: readonly string[],
  roles: readonly Role[],
  own?: Role,
): { rules: Rule[]; uiPermissions: string[] } {
  const byName = new Map(roles.map((r) => [r.metadata.name, r]));
  const names = [...chosen, ...includedBy(chosen, roles).keys()];
  const rules = new Map<string, Rule>();
  const uiPermissions = new Set<string>();
  for (const rule of own?.rules ?? []) rules.set(JSON.stringify(rule), rule);
  for (const permission of own ? listAnnotation(own, 'ui-permissions') : []) uiPermissions.add(permission);
  for (const name of names) {
    const role = byName.get(name);
    if (!role) continue;
    const granted = grantsOf(role);
    for (const rule of granted.rules) rules.set(JSON.stringify(rule), rule);
    for (const permission of granted.uiPermissions) uiPermissions.add(permission);
  }
  return { rules: [...rules.values()], uiPermissions: [...uiPermissions].sort() };
}

/** The draft of an existing role: its name, display name and dependencies. */
export function draftOf(role: Role): RoleDraft {
  return {
    name: role.metadata.name,
    displayName: role.metadata.annotations?.[`${ANNOTATION}display-name`] ?? '',
    module: role.metadata.annotations?.[`${ANNOTATION}module`] ?? '',
    chosen: listAnnotation(role, 'dependencies'),
    rules: (role.rules ?? []).filter(isEditable).map(draftOfRule),
    kept: (role.rules ?? []).filter((r) => !isEditable(r)),
  };
}

/**
 * The role to save: `base` (the role as read, so its version, own rules, labels
 * and other annotations go back unchanged) with the draft's display name, module,
 * dependencies and own rules (those it does not edit kept as they are).
 */
export function roleFromDraft(draft: RoleDraft, base?: Role): Role {
  const annotations = { ...base?.metadata.annotations };
  const set = (key: string, value: string) => {
    if (value) annotations[ANNOTATION + key] = value;
    else delete annotations[ANNOTATION + key];
  };
  set('display-name', draft.displayName.trim());
  set('module', draft.module.trim());
  set('dependencies', draft.chosen.length ? JSON.stringify(draft.chosen) : '');
  const { status: _status, ...rest } = base ?? { metadata: { name: draft.name }, rules: [] };
  const rules = [...(draft.kept ?? []), ...(draft.rules ?? []).map(ruleOf)];
  return { ...rest, metadata: { ...rest.metadata, name: base?.metadata.name ?? draft.name, annotations }, rules };
}
