import { conditionFields } from './conditions';
import { ANY, type PolicyRule, type UnusableCondition } from './types';

/** A resource type a rule names: its API group and plural. */
export interface NamedResource {
  group: string;
  plural: string;
}

/**
 * The resources conditional rules name, once each (wildcards and subresources' own names left out): what
 * `unusableConditions` needs the indexes of.
 */
export function conditionalResources(rules: readonly PolicyRule[]): NamedResource[] {
  const seen = new Map<string, NamedResource>();
  for (const rule of rules) for (const r of resourcesOf(rule)) seen.set(resourceName(r), r);
  return [...seen.values()];
}

/**
 * The conditional rules that grant nothing on a resource they name: its model is not served (`indexesOf` answers
 * undefined), or it does not index a field the condition names (the apiserver then leaves the condition out, as a
 * `!=` on a missing field would match every object).
 */
export function unusableConditions(
  rules: readonly PolicyRule[],
  indexesOf: (group: string, plural: string) => readonly string[] | undefined,
): UnusableCondition[] {
  const unusable: UnusableCondition[] = [];
  for (const rule of rules) {
    for (const named of resourcesOf(rule)) {
      const resource = resourceName(named);
      const indexes = indexesOf(named.group, named.plural);
      if (indexes === undefined) {
        unusable.push({
          rule,
          resource,
          reason: 'ModelNotServed',
          message: `${resource} is not served: the condition grants nothing until its model is`,
        });
        continue;
      }
      const missing = fieldsOf(rule).filter((f) => !indexes.includes(f));
      if (missing.length > 0) {
        unusable.push({
          rule,
          resource,
          reason: 'FieldNotIndexed',
          message:
            `${resource} does not index ${missing.map((f) => `"${f}"`).join(', ')}: the condition grants nothing ` +
            `until it does (its indexes are: ${indexes.join(', ')})`,
        });
      }
    }
  }
  return unusable;
}

/** The named (group, plural) pairs of a conditional resource rule; none for other rules and for wildcards. */
function resourcesOf(rule: PolicyRule): NamedResource[] {
  if (rule.where === undefined || (rule.nonResourceURLs?.length ?? 0) > 0) return [];
  const plurals = [...new Set((rule.resources ?? []).map((r) => r.split('/')[0]))];
  return (rule.apiGroups ?? [])
    .filter((group) => group !== ANY)
    .flatMap((group) => plurals.filter((plural) => plural !== ANY).map((plural) => ({ group, plural })));
}

function fieldsOf(rule: PolicyRule): string[] {
  try {
    return conditionFields(rule.where!);
  } catch {
    return []; // a condition that does not parse was refused when written; it grants nothing either way
  }
}

const resourceName = ({ group, plural }: NamedResource) => (group === '' ? plural : `${plural}.${group}`);
