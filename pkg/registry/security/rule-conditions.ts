import type { StatusCause } from '../../api/errors';
import { ANY, conditionErrors, conditionFields, type PolicyRule } from '../../auth/rbac';
import { withDefaultIndexes } from '../../storage/indexes';
import type { SchemeManager } from '../scheme';

/**
 * The indexes of the model served for `group` and `plural` (default indexes included), or `undefined` when none
 * is served (yet): a condition on it is kept, and grants nothing until the model is served.
 */
export type ModelIndexes = (group: string, plural: string) => string[] | undefined;

/**
 * What is wrong with a rule's condition (`where`), as 422 causes: it must be on a resource rule, parse, use only
 * `${user.name}`, and every field it names must be an index of every served model the rule names (a condition
 * that names fields needs named groups and resources, so that the check can be made). Conditions are compiled to
 * index queries; a field without an index would mean scanning, so it is refused.
 */
export function conditionCauses(rule: PolicyRule, field: string, indexesOf: ModelIndexes | undefined): StatusCause[] {
  if (rule.where === undefined) return [];
  const cause = (message: string, reason = 'FieldValueInvalid'): StatusCause => ({
    field: `${field}.where`,
    reason,
    message,
  });
  if (!isResourceRule(rule))
    return [
      cause('a condition narrows resources; this rule names nonResourceURLs or no resources', 'FieldValueForbidden'),
    ];
  const errors = conditionErrors(rule.where);
  if (errors.length) return errors.map((message) => cause(message));
  const fields = conditionFields(rule.where);
  if (fields.length === 0 || indexesOf === undefined) return [];
  return modelsOf(rule).flatMap((model) => fieldProblems(model, fields, indexesOf).map((m) => cause(m)));
}

const isResourceRule = (rule: PolicyRule) =>
  (rule.nonResourceURLs?.length ?? 0) === 0 && (rule.resources?.length ?? 0) > 0;

/** The (group, plural) pairs a rule names; subresources count as their plural. */
function modelsOf(rule: PolicyRule): { group: string; plural: string }[] {
  return (rule.apiGroups ?? []).flatMap((group) =>
    (rule.resources ?? []).map((resource) => ({ group, plural: resource.split('/')[0] })),
  );
}

/** Why `fields` cannot be a condition on one model: a wildcard, or fields it does not index. */
function fieldProblems(
  { group, plural }: { group: string; plural: string },
  fields: string[],
  indexesOf: ModelIndexes,
): string[] {
  if (group === ANY || plural === ANY)
    return [
      'a fieldSelector condition needs named API groups and resources (not "*"): its fields are checked ' +
        'against their indexes',
    ];
  const indexes = indexesOf(group, plural);
  if (indexes === undefined) return [];
  const model = group === '' ? plural : `${plural}.${group}`;
  return fields
    .filter((f) => !indexes.includes(f))
    .map(
      (name) =>
        `fieldSelector: "${name}" is not an index of ${model}; a condition may name only indexed fields ` +
        `(its indexes are: ${indexes.join(', ')})`,
    );
}

/** `ModelIndexes` read from the models the scheme serves now. */
export function servedModelIndexes(schemes: Pick<SchemeManager, 'served'>): ModelIndexes {
  return (group, plural) => {
    const served = schemes.served(group, plural);
    return served && withDefaultIndexes(served.model.indexes ?? []).map((spec) => spec.name);
  };
}
