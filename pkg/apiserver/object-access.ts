import { forbidden } from '../api/errors';
import type { ApiObject } from '../api/object';
import { conditionHolds, describeCondition, type BoundCondition } from '../auth/rbac';
import type { Model } from '../registry/model';
import type { ObjectAccess } from '../registry/resource-store';
import { indexValues, withDefaultIndexes, type IndexSpec } from '../storage/indexes';
import type { FieldRequirement, LabelRequirement, ListOptions } from '../storage/query';

/**
 * A request allowed by conditional rules only (see the RBAC conditions): the objects it may touch, as the
 * store's `ObjectAccess` and as list requirements.
 */

/** The objects matching any of `conditions`, each judged on the model's index values as list selectors are. */
export function objectAccess(conditions: readonly BoundCondition[], model: Model): ObjectAccess {
  const specs = indexSpecsOf(model);
  const valuesOf = (object: ApiObject, index: string) => {
    const spec = specs.get(index);
    return spec ? indexValues(spec, object) : [];
  };
  return {
    allows: (object) => conditions.some((c) => conditionHolds(c, object, valuesOf)),
    // Put into words only when a refusal says it.
    get describe() {
      return describeConditions(conditions);
    },
  };
}

/**
 * The conditions that can hold on objects of `model`: those whose every field is one of its indexes. Another (a
 * rule written before the model was served, or before an index was dropped) grants nothing: read on a field
 * without an index, a `!=` would match every object.
 */
export function usableConditions(conditions: readonly BoundCondition[], model: Model): BoundCondition[] {
  const indexes = indexSpecsOf(model);
  return conditions.filter((c) => c.fields.every((f) => indexes.has(f.field)));
}

/** Each model's indexes by name, the defaults included, worked out once per model object. */
const indexSpecs = new WeakMap<Model, Map<string, IndexSpec>>();

function indexSpecsOf(model: Model): Map<string, IndexSpec> {
  let specs = indexSpecs.get(model);
  if (specs === undefined) {
    specs = new Map(withDefaultIndexes(model.indexes ?? []).map((s) => [s.name, s]));
    indexSpecs.set(model, specs);
  }
  return specs;
}

/** `spec.owner=ada`, or `spec.owner=ada or labels team=a`. */
export const describeConditions = (conditions: readonly BoundCondition[]) =>
  conditions.map((c) => describeCondition(c.where)).join(' or ');

/**
 * Narrows a list (or a watch's initial list, or a deletecollection) to the objects the caller may see: the
 * request's requirements AND the conditions, which the store answers from its indexes.
 * - When the request already requires all that one condition does, it is inside it: nothing is added.
 * - One condition, or several that differ only in the values of one `in` requirement (`owner=a` or `owner=b`),
 *   is added as requirements (`owner in (a,b)`): one conjunction, the cheapest plan.
 * - Otherwise the conditions are the list's alternatives (`anyOf`): the request's requirements AND any one
 *   condition, each planned on its own indexes and the matches merged once each. Refused (403, saying which
 *   selectors to add) only when a condition names no values (`!=`, `notin`, `!key` alone) and the request does
 *   not either: those objects could only be found by reading every object.
 */
export function narrowedList(list: ListOptions, conditions: readonly BoundCondition[], resource: string): ListOptions {
  const asked = requirementKeys(list.labelSelector ?? [], list.fieldSelector ?? []);
  if (conditions.some((c) => [...requirementKeys(c.labels, c.fields)].every((k) => asked.has(k)))) return list;
  const merged = mergedCondition(conditions);
  if (merged === undefined) return { ...list, anyOf: alternativesFor(list, conditions, resource) };
  const narrowed = { ...list };
  // Only parts with requirements: a store may plan an empty selector differently from none.
  if (merged.labels.length) narrowed.labelSelector = [...(list.labelSelector ?? []), ...merged.labels];
  if (merged.fields.length) narrowed.fieldSelector = [...(list.fieldSelector ?? []), ...merged.fields];
  return narrowed;
}

/** The conditions as list alternatives; 403 when one names no values and neither does the request. */
function alternativesFor(list: ListOptions, conditions: readonly BoundCondition[], resource: string) {
  const namesValues = (reqs: readonly (LabelRequirement | FieldRequirement)[]) =>
    reqs.some((r) => r.op === 'in' || r.op === 'exists');
  const requestNamesValues = namesValues([...(list.labelSelector ?? []), ...(list.fieldSelector ?? [])]);
  const excluding = conditions.filter((c) => !namesValues([...c.labels, ...c.fields]));
  if (!requestNamesValues && excluding.length > 0) {
    throw forbidden(
      `${resource} is forbidden: this list may hold only objects where ${describeConditions(conditions)}; ` +
        `${describeConditions(excluding)} names no values, so add selectors that do (e.g. one of the other ` +
        'conditions, or a label or field with =), or list one condition at a time',
      { resource },
    );
  }
  return conditions.map((c) => ({ labelSelector: c.labels, fieldSelector: c.fields }));
}

const key = (r: LabelRequirement | FieldRequirement) =>
  JSON.stringify(['key' in r ? `l:${r.key}` : `f:${r.field}`, r.op, [...r.values].sort()]);

function requirementKeys(labels: readonly LabelRequirement[], fields: readonly FieldRequirement[]): Set<string> {
  return new Set([...labels.map(key), ...fields.map(key)]);
}

/** The conditions as one conjunction, when they are one or differ only in one `in` requirement's values. */
function mergedCondition(
  conditions: readonly BoundCondition[],
): { labels: LabelRequirement[]; fields: FieldRequirement[] } | undefined {
  const [first, ...rest] = conditions;
  if (rest.length === 0) return { labels: first.labels, fields: first.fields };
  const all = (c: BoundCondition) => [...c.labels, ...c.fields];
  const shape = (r: LabelRequirement | FieldRequirement) =>
    JSON.stringify(['key' in r ? `l:${r.key}` : `f:${r.field}`, r.op]);
  const base = all(first);
  if (conditions.some((c) => all(c).length !== base.length)) return undefined;
  // The one requirement whose values differ between conditions; every other must be the same in each.
  const differing = base.findIndex((r) => conditions.some((c) => !all(c).some((o) => key(o) === key(r))));
  if (differing < 0) return { labels: first.labels, fields: first.fields };
  const target = base[differing];
  if (target.op !== 'in') return undefined;
  const values = new Set<string>();
  for (const c of conditions) {
    const reqs = all(c);
    const same = base.filter((_, i) => i !== differing).every((r) => reqs.some((o) => key(o) === key(r)));
    const match = reqs.filter((o) => shape(o) === shape(target));
    if (!same || match.length !== 1) return undefined;
    for (const v of match[0].values) values.add(v);
  }
  const widened = { ...target, values: [...values].sort() };
  const replace = <T>(list: readonly T[]) => list.map((r) => ((r as unknown) === target ? (widened as T) : r));
  return { labels: replace(first.labels), fields: replace(first.fields) };
}
