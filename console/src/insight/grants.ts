import type { RuleWithVia } from '../api/insight';

/** The rules on one resource (or on paths), as a user's grants list them. */
export interface GrantGroup {
  /** `posts (content.svc.run)`, `users (core)`, `every resource`, `paths`. */
  title: string;
  rules: RuleWithVia[];
}

/** Where rules on every resource, and rules on paths, are listed. */
export const EVERY_RESOURCE = 'every resource';
export const PATHS = 'paths';

/**
 * Rules grouped by the resource they are on, a rule naming several resources under each of them; sorted by
 * resource, rules on every resource first and rules on paths last.
 */
export function groupByResource(resourceRules: readonly RuleWithVia[], nonResourceRules: readonly RuleWithVia[]) {
  const groups = new Map<string, RuleWithVia[]>();
  const add = (title: string, rule: RuleWithVia) => groups.set(title, [...(groups.get(title) ?? []), rule]);
  for (const rule of resourceRules) for (const title of titlesOf(rule)) add(title, rule);
  const sorted: GrantGroup[] = [...groups]
    .map(([title, rules]) => ({ title, rules }))
    .sort((a, b) => rank(a.title) - rank(b.title) || a.title.localeCompare(b.title));
  return nonResourceRules.length ? [...sorted, { title: PATHS, rules: [...nonResourceRules] }] : sorted;
}

const rank = (title: string) => (title.startsWith(EVERY_RESOURCE) ? 0 : 1);

function titlesOf(rule: RuleWithVia): string[] {
  const groups = rule.apiGroups ?? [];
  const where = groups.length === 0 || groups.includes('*') ? '' : ` (${groups.map((g) => g || 'core').join(', ')})`;
  const resources = rule.resources ?? [];
  if (resources.length === 0 || resources.includes('*')) return [`${EVERY_RESOURCE}${where}`];
  return resources.map((resource) => `${resource}${where}`);
}

/** Whether a rule comes through a role the user holds by a binding (not only through every signed-in user's). */
export const isOwnGrant = (rule: RuleWithVia) => rule.via.some((v) => v.binding !== undefined);
