/** A Role as the console reads it. */
export interface Role {
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  rules?: Rule[];
  status?: {
    rules?: Rule[];
    uiPermissions?: string[];
    contributors?: { name: string; via: string; through?: string }[];
  };
}

export interface Rule {
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
  verbs: string[];
  /** Only objects that match (selectors; `${user.name}` the caller's name). */
  where?: { fieldSelector?: string; labelSelector?: string };
}

const ANNOTATION = 'rbac.authorization.svc.run/';
export const HIDDEN_LABEL = 'svc.run/hidden';
export const TEMPLATE_LABEL = 'svc.run/role-template';
/** Where roles without a `module` annotation are grouped. */
export const NO_MODULE = 'Other';

const annotation = (role: Role, key: string) => role.metadata.annotations?.[ANNOTATION + key];

export const displayName = (role: Role) => annotation(role, 'display-name') || role.metadata.name;
export const moduleOf = (role: Role) => annotation(role, 'module') || NO_MODULE;
export const isHidden = (role: Role) => role.metadata.labels?.[HIDDEN_LABEL] === 'true';

/** A JSON-array annotation (`dependencies`, `ui-permissions`); anything else reads as empty. */
export function listAnnotation(role: Role, key: 'dependencies' | 'ui-permissions'): string[] {
  try {
    const value: unknown = JSON.parse(annotation(role, key) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** The roles a user may be given, hidden ones left out, grouped by `module` (groups and roles in name order). */
export function groupByModule(roles: readonly Role[]): { module: string; roles: Role[] }[] {
  const groups = new Map<string, Role[]>();
  for (const role of roles.filter((r) => !isHidden(r))) {
    const module = moduleOf(role);
    groups.set(module, [...(groups.get(module) ?? []), role]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a === NO_MODULE ? 1 : b === NO_MODULE ? -1 : a.localeCompare(b)))
    .map(([module, list]) => ({ module, roles: list.sort((a, b) => displayName(a).localeCompare(displayName(b))) }));
}

/**
 * The roles that chosen ones include through their dependencies, each with
 * the chosen role it comes through (transitively; cycles are harmless).
 */
export function includedBy(chosen: readonly string[], roles: readonly Role[]): Map<string, string> {
  const byName = new Map(roles.map((r) => [r.metadata.name, r]));
  const included = new Map<string, string>();
  for (const root of chosen) {
    const queue = [root];
    while (queue.length) {
      const role = byName.get(queue.shift() as string);
      for (const dep of role ? listAnnotation(role, 'dependencies') : []) {
        if (dep === root || included.has(dep)) continue;
        included.set(dep, root);
        queue.push(dep);
      }
    }
  }
  for (const name of chosen) included.delete(name);
  return included;
}
