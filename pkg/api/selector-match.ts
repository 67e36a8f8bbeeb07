import type { FieldRequirement, LabelRequirement } from './selector-requirements';

/**
 * Pure predicates for one object against parsed selectors; the memory backend
 * filters with them, watch filtering (enter/leave semantics) and informer
 * caches use them too.
 */

/** Whether labels satisfy one requirement. `notin` and `!exists` match an absent label. */
export function labelMatches(labels: Record<string, string> | undefined, req: LabelRequirement): boolean {
  const has = labels !== undefined && Object.prototype.hasOwnProperty.call(labels, req.key);
  switch (req.op) {
    case 'exists':
      return has;
    case '!exists':
      return !has;
    case 'in':
      return has && req.values.includes(labels[req.key]);
    case 'notin':
      return !has || !req.values.includes(labels[req.key]);
  }
}

/** Whether an object's values for an index satisfy one requirement (any value for `in`, none for `notin`). */
export function fieldMatches(values: readonly string[], req: FieldRequirement): boolean {
  let hit = false;
  for (let i = 0; i < values.length && !hit; i++) hit = req.values.includes(values[i]);
  return req.op === 'in' ? hit : !hit;
}

/** Whether labels satisfy every requirement (no requirements: always). */
export const labelsMatch = (labels: Record<string, string> | undefined, reqs: readonly LabelRequirement[] = []) =>
  reqs.every((r) => labelMatches(labels, r));
