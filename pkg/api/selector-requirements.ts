/**
 * One parsed label requirement (docs/api.md):
 * `key=v`/`key==v` → `{op:'in', values:[v]}`, `key!=v` → `{op:'notin', values:[v]}`,
 * `key in (a,b)`, `key notin (a,b)`, `key` → `exists`, `!key` → `!exists`.
 * `notin` matches objects that lack the label.
 */
export interface LabelRequirement {
  key: string;
  op: 'in' | 'notin' | 'exists' | '!exists';
  /** Empty for `exists` and `!exists`. */
  values: string[];
}

/**
 * One parsed field requirement on an index (docs/api.md):
 * `f=v`/`f==v` → `{op:'in', values:[v]}`, `f=(a,b)` → `{op:'in', values:[a,b]}`,
 * `f!=v` → `{op:'notin', values:[v]}`. `notin` matches objects with no value.
 * For a multi-valued index, `in` matches when any of the object's values is listed,
 * `notin` when none is.
 */
export interface FieldRequirement {
  /** An index name, e.g. `spec.tags` or `metadata.name`. */
  field: string;
  op: 'in' | 'notin';
  values: string[];
}
