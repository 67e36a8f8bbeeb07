import { conditionCovers } from './conditions';
import { hasResourceNames } from './rules';
import { ANY, type PolicyRule, type RuleCondition } from './types';

/**
 * Escalation prevention (docs/security.md, Kubernetes' `ConfirmNoEscalation`): each
 * requested rule is broken into atoms — verb × group × resource × name, or
 * verb × URL — and every atom must be covered by a rule the granter holds.
 * A requested `*` is covered only by `*`; a requested rule without
 * resourceNames only by owner rules without resourceNames. A conditional owner
 * rule (`where C`) covers only requested rules whose condition is C or
 * narrower (C and more); an owner rule without a condition covers both kinds.
 */

/** The owner's value `owned` covers the requested `wanted`: equal, or the owner has `*`. */
function valueCovers(owned: readonly string[] | undefined, wanted: string): boolean {
  return owned !== undefined && (owned.includes(ANY) || owned.includes(wanted));
}

/** An owner resource list covers `plural`, `plural/sub`, `*<slash>sub` or `*`. */
function resourceCovers(owned: readonly string[] | undefined, wanted: string): boolean {
  if (owned === undefined) return false;
  if (owned.includes(ANY) || owned.includes(wanted)) return true;
  const slash = wanted.indexOf('/');
  return slash > 0 && wanted.slice(0, slash) !== ANY && owned.includes(`*${wanted.slice(slash)}`);
}

/** An owner URL list covers `wanted`: equal, or a `prefix*` that `wanted` starts with. */
function urlCovers(owned: readonly string[] | undefined, wanted: string): boolean {
  if (owned === undefined) return false;
  return owned.some((url) => url === wanted || (url.endsWith(ANY) && wanted.startsWith(url.slice(0, -1))));
}

function resourceAtomCovered(
  owners: readonly PolicyRule[],
  verb: string,
  group: string,
  resource: string,
  name: string | undefined,
  where: RuleCondition | undefined,
): boolean {
  return owners.some(
    (owner) =>
      valueCovers(owner.verbs, verb) &&
      valueCovers(owner.apiGroups, group) &&
      resourceCovers(owner.resources, resource) &&
      (!hasResourceNames(owner) || (name !== undefined && owner.resourceNames!.includes(name))) &&
      (owner.where === undefined || (where !== undefined && conditionCovers(owner.where, where))),
  );
}

/** Whether every atom of `rule` is covered by `owners`. */
export function ruleCovered(owners: readonly PolicyRule[], rule: PolicyRule): boolean {
  return rule.verbs.every((verb) => resourceAtomsCovered(owners, rule, verb) && urlsCovered(owners, rule, verb));
}

/** Whether every (group, resource, name) of `rule` with `verb` is covered by `owners`. */
function resourceAtomsCovered(owners: readonly PolicyRule[], rule: PolicyRule, verb: string): boolean {
  if (rule.resources === undefined || rule.resources.length === 0) return true;
  const names: (string | undefined)[] = hasResourceNames(rule) ? rule.resourceNames! : [undefined];
  const resources = rule.resources;
  return (rule.apiGroups ?? []).every((group) =>
    resources.every((resource) =>
      names.every((name) => resourceAtomCovered(owners, verb, group, resource, name, rule.where)),
    ),
  );
}

/** Whether every non-resource URL of `rule` with `verb` is covered by `owners`. */
function urlsCovered(owners: readonly PolicyRule[], rule: PolicyRule, verb: string): boolean {
  return (rule.nonResourceURLs ?? []).every((url) =>
    owners.some((owner) => valueCovers(owner.verbs, verb) && urlCovers(owner.nonResourceURLs, url)),
  );
}

/** The requested rules with an atom that no owner rule covers; `[]` when the owner holds them all. */
export function uncoveredRules(owners: readonly PolicyRule[], requested: readonly PolicyRule[]): PolicyRule[] {
  return requested.filter((rule) => !ruleCovered(owners, rule));
}
