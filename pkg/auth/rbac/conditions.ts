import type { ApiObject } from '../../api/object';
import { fieldMatches, labelsMatch } from '../../api/selector-match';
import type { FieldRequirement, LabelRequirement } from '../../api/selector-requirements';
import { parseFieldSelector, parseLabelSelector } from '../../api/selectors';
import type { UserInfo } from '../user';
import type { PolicyRule, RuleCondition } from './types';

/**
 * Conditional rules: a resource rule with `where` allows only the objects its
 * selectors match, `${user.name}` standing for the caller's name. A condition
 * is parsed with the variable still in it (`ParsedCondition`), checked when
 * the role is written, and bound to a caller when a request needs it
 * (`BoundCondition`): the variable is replaced in the parsed values, never in
 * the selector's text, so that no user name can add a requirement of its own.
 */

/** The one variable a condition may use. */
export const USER_NAME_VARIABLE = '${user.name}';

/**
 * What the variable is parsed as: a valid label value and field value that a selector could hold only by
 * writing it literally, which a role write refuses (`conditionErrors`).
 */
const PLACEHOLDER = 'svc-user-name-variable-0a1b2c';

/** A condition's requirements, as parsed from its selectors (the variable still in place). */
export interface ParsedCondition {
  labels: LabelRequirement[];
  fields: FieldRequirement[];
}

/** A condition bound to one caller: requirements to hold, and the selectors as the caller reads them. */
export interface BoundCondition {
  labels: LabelRequirement[];
  fields: FieldRequirement[];
  /** The rule's selectors with `${user.name}` filled in: what reviews and messages show. */
  where: RuleCondition;
}

/** Whether the rule is conditional. */
export const isConditional = (rule: PolicyRule): boolean => rule.where !== undefined;

/** Parsed conditions by the rule's `where` object: a decision binds a condition without parsing it again. */
const parsedConditions = new WeakMap<RuleCondition, ParsedCondition>();

/** Parses a condition's selectors (throws the selector parser's 400 on bad syntax); the result must not be changed. */
export function parseCondition(where: RuleCondition): ParsedCondition {
  let parsed = parsedConditions.get(where);
  if (parsed === undefined) {
    parsed = {
      labels: parseLabelSelector(where.labelSelector ? [toPlaceholder(where.labelSelector)] : []),
      fields: parseFieldSelector(where.fieldSelector ? [toPlaceholder(where.fieldSelector)] : []),
    };
    parsedConditions.set(where, parsed);
  }
  return parsed;
}

const toPlaceholder = (selector: string) => selector.split(USER_NAME_VARIABLE).join(PLACEHOLDER);

/**
 * What is wrong with a condition (empty when nothing): a selector that does not parse, a variable other than
 * `${user.name}`, the placeholder written literally, or a condition that requires nothing.
 */
export function conditionErrors(where: RuleCondition): string[] {
  const errors: string[] = [];
  for (const part of ['fieldSelector', 'labelSelector'] as const) {
    const text = where[part];
    if (text === undefined) continue;
    const unknown = text
      .split(USER_NAME_VARIABLE)
      .join('')
      .match(/\$\{[^}]*\}?/);
    if (unknown) errors.push(`${part}: unknown variable "${unknown[0]}" (the one variable is ${USER_NAME_VARIABLE})`);
    if (text.includes(PLACEHOLDER)) errors.push(`${part}: "${PLACEHOLDER}" is reserved`);
  }
  if (errors.length) return errors;
  try {
    const parsed = parseCondition(where);
    if (parsed.labels.length === 0 && parsed.fields.length === 0)
      errors.push('a condition needs a fieldSelector or a labelSelector that requires something');
    const names = [...parsed.labels.map((r) => r.key), ...parsed.fields.map((r) => r.field)];
    if (names.some((name) => name.includes(PLACEHOLDER)))
      errors.push(`${USER_NAME_VARIABLE} may stand only in a value, not in a label key or a field name`);
  } catch (err) {
    errors.push((err as Error).message);
  }
  return errors;
}

/** The fields a condition names (index names of the model it is about). */
export function conditionFields(where: RuleCondition): string[] {
  return [...new Set(parseCondition(where).fields.map((f) => f.field))];
}

/**
 * The condition bound to `user`, or `undefined` when it can hold for no object: a caller without a name (the
 * anonymous visitor) never satisfies a condition that names `${user.name}`.
 */
export function bindCondition(where: RuleCondition, user: UserInfo, anonymous: boolean): BoundCondition | undefined {
  const usesVariable = [where.fieldSelector, where.labelSelector].some((s) => s?.includes(USER_NAME_VARIABLE));
  if (usesVariable && anonymous) return undefined;
  const parsed = parseCondition(where);
  const fill = (values: string[]) => values.map((v) => v.split(PLACEHOLDER).join(user.name));
  const bound: RuleCondition = {};
  if (where.fieldSelector !== undefined)
    bound.fieldSelector = where.fieldSelector.split(USER_NAME_VARIABLE).join(user.name);
  if (where.labelSelector !== undefined)
    bound.labelSelector = where.labelSelector.split(USER_NAME_VARIABLE).join(user.name);
  return {
    labels: parsed.labels.map((r) => ({ ...r, values: fill(r.values) })),
    fields: parsed.fields.map((r) => ({ ...r, values: fill(r.values) })),
    where: bound,
  };
}

/** Whether the object satisfies a bound condition, its index values read by `valuesOf`. */
export function conditionHolds(
  condition: BoundCondition,
  object: ApiObject,
  valuesOf: (object: ApiObject, index: string) => string[],
): boolean {
  return (
    labelsMatch(object.metadata.labels, condition.labels) &&
    condition.fields.every((r) => fieldMatches(valuesOf(object, r.field), r))
  );
}

/**
 * Whether `narrower` requires at least everything `wider` does (it is `wider` AND more), compared on the
 * parsed requirements with the variable in place: holding a rule with `wider` covers granting one with `narrower`.
 */
export function conditionCovers(wider: RuleCondition, narrower: RuleCondition): boolean {
  let w: ParsedCondition;
  let n: ParsedCondition;
  try {
    w = parseCondition(wider);
    n = parseCondition(narrower);
  } catch {
    return false; // a condition that does not parse covers nothing and is covered by nothing
  }
  const key = (r: object) => JSON.stringify(r, Object.keys(r).sort());
  const normal = <T extends { values: string[] }>(r: T) => key({ ...r, values: [...r.values].sort() });
  const has = new Set([...n.labels.map(normal), ...n.fields.map(normal)]);
  return [...w.labels.map(normal), ...w.fields.map(normal)].every((k) => has.has(k));
}

/** Bound conditions by rule condition and user name: a caller's next request binds nothing again. */
const boundConditions = new WeakMap<RuleCondition, Map<string, BoundCondition | undefined>>();
/** Users remembered per condition before its cache starts over (bounds the memory a flood of names can take). */
const MAX_BOUND_PER_CONDITION = 10_000;

/** `bindCondition`, remembered per condition and user name; the answer must not be changed. */
export function boundConditionFor(
  where: RuleCondition,
  user: UserInfo,
  anonymous: boolean,
): BoundCondition | undefined {
  let byUser = boundConditions.get(where);
  if (byUser === undefined) boundConditions.set(where, (byUser = new Map()));
  const key = anonymous ? '\u0000anonymous' : user.name;
  if (byUser.has(key)) return byUser.get(key);
  if (byUser.size >= MAX_BOUND_PER_CONDITION) byUser.clear();
  const bound = bindCondition(where, user, anonymous);
  byUser.set(key, bound);
  return bound;
}

/** Whether two bound conditions say the same (the same selectors after binding). */
export const sameCondition = (a: BoundCondition, b: BoundCondition): boolean =>
  a === b || (a.where.fieldSelector === b.where.fieldSelector && a.where.labelSelector === b.where.labelSelector);
