import type { Condition } from '../api/insight';
import type { Rule } from '../roles/roles';

/** The one variable a condition may name: the caller's user name. */
export const USER_NAME = '${user.name}';

/** Whom a condition's `${user.name}` stands for when read: "you" on one's own page, else the user's name. */
export interface Reader {
  /** The user the rules belong to (a filled-in condition names them). */
  user?: string;
  /** The reader is that user. */
  self?: boolean;
}

const whoIs = (reader: Reader) => (reader.self ? 'you' : (reader.user ?? 'the caller'));

/** One selector requirement in words: `spec.owner=${user.name}` → `spec.owner = you`. */
function requirementInWords(requirement: string, reader: Reader): string {
  const m = /^\s*([^!=\s]+)\s*(==|=|!=)\s*(.*?)\s*$/.exec(requirement);
  if (!m) return requirement.trim().split(USER_NAME).join(whoIs(reader));
  const [, key, op, raw] = m;
  const value = raw === USER_NAME || (reader.user !== undefined && raw === reader.user) ? whoIs(reader) : raw;
  return `${key} ${op === '!=' ? '≠' : '='} ${value}`;
}

/** Splits a selector at the commas outside parentheses (`a in (x,y),b=c` → two requirements). */
export function requirementsOf(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    if (selector[i] === '(') depth++;
    else if (selector[i] === ')') depth = Math.max(0, depth - 1);
    else if (selector[i] === ',' && depth === 0) {
      parts.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(selector.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** A condition in words: its requirements joined by "and" (`spec.owner = you and category in (news)`). */
export function conditionInWords(condition: Condition, reader: Reader = {}): string {
  const parts = [
    ...requirementsOf(condition.fieldSelector ?? ''),
    ...requirementsOf(condition.labelSelector ?? '').map((r) => `label ${r}`),
  ];
  return parts.map((r) => requirementInWords(r, reader)).join(' and ');
}

/** Several conditions (any one grants): `where a or where b`. */
export function conditionsInWords(conditions: readonly Condition[], reader: Reader = {}): string {
  return conditions.map((c) => `where ${conditionInWords(c, reader)}`).join(', or ');
}

const listOf = (items: readonly string[] | undefined, every: string) =>
  !items || items.length === 0 ? '' : items.includes('*') ? every : items.join(', ');

/**
 * A rule in words, as a user page shows it: `update, delete posts (content.svc.run) where spec.owner = you`,
 * `get /metrics`, `every verb on everything`.
 */
export function ruleInWords(rule: Rule, reader: Reader = {}): string {
  const verbs = listOf(rule.verbs, 'every verb on');
  if (rule.nonResourceURLs?.length) return `${verbs} ${rule.nonResourceURLs.join(', ')}`;
  const where = rule.where && conditionInWords(rule.where, reader);
  return [verbs, listOf(rule.resources, 'everything'), groupsOf(rule), namesOf(rule), where ? `where ${where}` : '']
    .filter(Boolean)
    .join(' ');
}

/** `(content.svc.run, core)`; nothing for every group. */
function groupsOf(rule: Rule): string {
  const groups = rule.apiGroups ?? [];
  if (groups.length === 0 || groups.includes('*')) return '';
  return `(${groups.map((g) => g || 'core').join(', ')})`;
}

const namesOf = (rule: Rule) => (rule.resourceNames?.length ? `named ${rule.resourceNames.join(', ')}` : '');
