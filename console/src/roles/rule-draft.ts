import type { Rule } from './roles';

/** One resource rule as the role editor edits it: comma-separated lists and the two parts of its condition. */
export interface RuleDraft {
  apiGroups: string;
  resources: string;
  verbs: string;
  fieldSelector: string;
  labelSelector: string;
}

export const EMPTY_RULE: RuleDraft = { apiGroups: '', resources: '', verbs: '', fieldSelector: '', labelSelector: '' };

/** Whether the editor can edit a rule: a resource rule without resource names (others are kept as they are). */
export const isEditable = (rule: Rule) => !rule.nonResourceURLs?.length && !rule.resourceNames?.length;

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter((s, i, all) => all.indexOf(s) === i && (s !== '' || all.length === 1));

/** The rule a draft writes; `core` or an empty entry is the core group (""), a condition only with its parts. */
export function ruleOf(draft: RuleDraft): Rule {
  const groups = draft.apiGroups.trim() === '' ? [''] : list(draft.apiGroups).map((g) => (g === 'core' ? '' : g));
  const rule: Rule = { apiGroups: groups, resources: list(draft.resources), verbs: list(draft.verbs) };
  const where: NonNullable<Rule['where']> = {};
  if (draft.fieldSelector.trim()) where.fieldSelector = draft.fieldSelector.trim();
  if (draft.labelSelector.trim()) where.labelSelector = draft.labelSelector.trim();
  if (where.fieldSelector || where.labelSelector) rule.where = where;
  return rule;
}

/** A rule as a draft (the editor's fields). */
export function draftOfRule(rule: Rule): RuleDraft {
  return {
    apiGroups: (rule.apiGroups ?? []).map((g) => g || 'core').join(', '),
    resources: (rule.resources ?? []).join(', '),
    verbs: rule.verbs.join(', '),
    fieldSelector: rule.where?.fieldSelector ?? '',
    labelSelector: rule.where?.labelSelector ?? '',
  };
}
