import { StorageError } from './errors';
import { NAME_INDEX } from './indexes';
import type { Alternative, FieldRequirement, LabelRequirement, ListOptions } from './query';

/**
 * What a list with `anyOf` comes down to, the same on every backend:
 * - no `anyOf`, or an alternative the list's own requirements already imply
 *   (or one with no requirements): the plain list;
 * - `anyOf: []`: nothing, as the requirement `metadata.name in ()`;
 * - one alternative: its requirements added to the list's;
 * - several: the list's requirements and each alternative's own (those the
 *   list does not already have), `alternatives` holding at least two.
 *
 * Invalid when an alternative, with the list's own requirements, names no
 * values (only `notin`, `!=` or `!key`): the objects it admits could only be
 * found by reading the whole type.
 */
export interface ResolvedAlternatives {
  /** The list without `anyOf`, with a lone alternative (or the empty union) folded in. */
  options: ListOptions;
  /** Two or more alternatives, each holding only requirements the list does not. */
  alternatives?: Required<Alternative>[];
}

export function resolveAlternatives(options: ListOptions): ResolvedAlternatives {
  const { anyOf, ...plain } = options;
  if (anyOf === undefined) return { options: plain };
  if (!Array.isArray(anyOf)) throw new StorageError('Invalid', 'anyOf must be a list of alternatives');
  if (anyOf.length === 0) return { options: withRequirements(plain, { fieldSelector: [NOTHING] }) };
  const own = new Set([...(plain.labelSelector ?? []).map(keyOf), ...(plain.fieldSelector ?? []).map(keyOf)]);
  const rest = anyOf.map((alt) => ({
    labelSelector: (alt.labelSelector ?? []).filter((r) => !own.has(keyOf(r))),
    fieldSelector: (alt.fieldSelector ?? []).filter((r) => !own.has(keyOf(r))),
  }));
  if (rest.some((alt) => alt.labelSelector.length + alt.fieldSelector.length === 0)) return { options: plain };
  if (rest.length === 1) return { options: withRequirements(plain, rest[0]) };
  checkNamesValues(plain, rest);
  return { options: plain, alternatives: rest };
}

/** The list with an alternative's requirements added to its own. */
const withRequirements = (list: ListOptions, alt: Alternative): ListOptions => ({
  ...list,
  labelSelector: [...(list.labelSelector ?? []), ...(alt.labelSelector ?? [])],
  fieldSelector: [...(list.fieldSelector ?? []), ...(alt.fieldSelector ?? [])],
});

/** Invalid when an alternative names no values and neither does the list. */
function checkNamesValues(list: ListOptions, alternatives: readonly Required<Alternative>[]): void {
  if ([...(list.labelSelector ?? []), ...(list.fieldSelector ?? [])].some(namesValues)) return;
  alternatives.forEach((alt, at) => {
    if ([...alt.labelSelector, ...alt.fieldSelector].some(namesValues)) return;
    throw new StorageError(
      'Invalid',
      `anyOf[${at}]: an alternative must name values (=, in, or a label key), unless the list itself does; ` +
        'one that only excludes would read every object',
    );
  });
}

/** The requirement no object meets: its name in the empty set. */
const NOTHING: FieldRequirement = { field: NAME_INDEX, op: 'in', values: [] };

const namesValues = (r: LabelRequirement | FieldRequirement): boolean => r.op === 'in' || r.op === 'exists';

const keyOf = (r: LabelRequirement | FieldRequirement): string =>
  JSON.stringify(['key' in r ? `l:${r.key}` : `f:${r.field}`, r.op, [...new Set(r.values)].sort()]);
