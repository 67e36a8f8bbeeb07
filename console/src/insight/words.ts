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
  return [
    verbs,
    listOf(rule.resources, 'everything'),
    groupsOf(rule),
    namesOf(rule, reader),
    where ? `where ${where}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** `(content.svc.run, core)`; nothing for every group. */
function groupsOf(rule: Rule): string {
  const groups = rule.apiGroups ?? [];
  if (groups.length === 0 || groups.includes('*')) return '';
  return `(${groups.map((g) => g || 'core').join(', ')})`;
}

/** `named a, b`; the name `-` stands for the caller (`users/-`), read as whom it is: `named - (you)`. */
const namesOf = (rule: Rule, reader: Reader) =>
  rule.resourceNames?.length
    ? `named ${rule.resourceNames.map((n) => (n === '-' ? `- (${whoIs(reader)})` : n)).join(', ')}`
    : '';

/**
 * What a rule allows on the resources it names, in words: `update, delete named a only where spec.owner = you`;
 * on paths, with the paths: `get /healthz, /version`.
 */
export function actionsInWords(rule: Rule, reader: Reader = {}): string {
  const paths = listOf(rule.nonResourceURLs, 'every path');
  const verbs = rule.verbs.includes('*') ? (paths ? 'every verb on' : 'every verb') : rule.verbs.join(', ');
  const where = rule.where && conditionInWords(rule.where, reader);
  return [verbs, paths, namesOf(rule, reader), where ? `only where ${where}` : ''].filter(Boolean).join(' ');
}

/** How a grant is held, in words: `editor → posts-manage (binding ada-editor)`, or every signed-in user's role. */
export function viaInWords(via: { binding?: string; role: string; path: readonly string[] }): string {
  const path = (via.path.length ? via.path : [via.role]).join(' → ');
  if (via.binding) return `${path} (binding ${via.binding})`;
  return `${path} (${via.role === 'anonymous' ? 'everyone, even without signing in' : 'every signed-in user'})`;
}
