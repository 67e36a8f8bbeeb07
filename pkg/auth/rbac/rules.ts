import type { RequestAttributes } from '../attributes';
import { ANY, type PolicyRule } from './types';

/**
 * Whether one rule allows one request (docs/security.md), as small predicates, and
 * why a rule does not, for explanations. Kubernetes' semantics, without
 * Halo's bugs: every resourceNames entry counts and `*<slash>sub` matches.
 *
 * Non-resource URLs: an entry ending in `*` is a prefix, so `/healthz/*`
 * matches `/healthz/x` but, as in Kubernetes, `/apis/*` does not match `/apis`.
 */

/** Verbs that address no single object: a rule with resourceNames never allows them. */
export const NAMELESS_VERBS: ReadonlySet<string> = new Set(['create', 'list', 'deletecollection']);

const SLASH = 0x2f;
const STAR = 0x2a;

/** Whether `values` holds `*` or `value`. */
function holds(values: readonly string[] | undefined, value: string): boolean {
  if (values === undefined) return false;
  for (const v of values) if (v === value || v === ANY) return true;
  return false;
}

/** The rule's verbs hold the verb or `*`. */
export function verbMatches(rule: PolicyRule, verb: string): boolean {
  return holds(rule.verbs, verb);
}

/** The rule's apiGroups hold the group (`""` is core) or `*`. */
export function apiGroupMatches(rule: PolicyRule, apiGroup: string): boolean {
  return holds(rule.apiGroups, apiGroup);
}

/**
 * The rule's resources hold `*`, the resource (only when no subresource is
 * asked for), `<resource>/<subresource>`, or `*<slash><subresource>`.
 */
export function resourceMatches(rule: PolicyRule, resource: string, subresource: string): boolean {
  if (rule.resources === undefined) return false;
  for (const r of rule.resources) {
    if (r === ANY) return true;
    if (subresource === '' ? r === resource : subresourceEntryMatches(r, resource, subresource)) return true;
  }
  return false;
}

/** Whether the rule's entry `r` is `<resource>/<subresource>` or `*<slash><subresource>`, compared in place (no string built per check). */
function subresourceEntryMatches(r: string, resource: string, subresource: string): boolean {
  if (!r.endsWith(subresource) || r.charCodeAt(r.length - subresource.length - 1) !== SLASH) return false;
  const head = r.length - subresource.length - 1;
  return (head === resource.length && r.startsWith(resource)) || (head === 1 && r.charCodeAt(0) === STAR);
}

/** Whether the rule limits names: resourceNames present and non-empty. */
export function hasResourceNames(rule: PolicyRule): boolean {
  return rule.resourceNames !== undefined && rule.resourceNames.length > 0;
}

/**
 * Without resourceNames any name matches. With them, the name must be one of
 * them (every entry counts; `-` is an ordinary name), and create, list,
 * deletecollection and nameless requests (a collection watch) never match.
 */
export function resourceNameMatches(rule: PolicyRule, verb: string, name: string): boolean {
  if (!hasResourceNames(rule)) return true;
  if (name === '' || NAMELESS_VERBS.has(verb)) return false;
  return rule.resourceNames!.includes(name);
}

/** The rule's nonResourceURLs hold `*`, the path, or a prefix of it ending in `*`. */
export function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  if (rule.nonResourceURLs === undefined) return false;
  for (const url of rule.nonResourceURLs) {
    if (url === path || url === ANY) return true;
    if (url.endsWith(ANY) && path.startsWith(url.slice(0, -1))) return true;
  }
  return false;
}

/**
 * Whether `rule` allows the request whatever the object: resource rules only resource requests, URL rules only the
 * others; a conditional rule (`where`) never does so on its own (see `ruleMatchesRequest`).
 */
export function ruleAllows(rule: PolicyRule, attrs: RequestAttributes): boolean {
  return rule.where === undefined && ruleMatchesRequest(rule, attrs);
}

/** Whether the rule's verbs, groups, resources, names (or URLs) match the request, its condition left aside. */
export function ruleMatchesRequest(rule: PolicyRule, attrs: RequestAttributes): boolean {
  if (!verbMatches(rule, attrs.verb)) return false;
  if (!attrs.isResourceRequest) return nonResourceURLMatches(rule, attrs.path);
  return (
    apiGroupMatches(rule, attrs.apiGroup) &&
    resourceMatches(rule, attrs.resource, attrs.subresource) &&
    resourceNameMatches(rule, attrs.verb, attrs.name)
  );
}

const list = (values: readonly string[] | undefined) =>
  `[${(values ?? []).map((v) => (v === '' ? '""' : v)).join(', ')}]`;

/** The request's resource as rules write it: `persons` or `persons/status`. */
export function combinedResource(attrs: Pick<RequestAttributes, 'resource' | 'subresource'>): string {
  return attrs.subresource === '' ? attrs.resource : `${attrs.resource}/${attrs.subresource}`;
}

/**
 * Why `rule` does not allow the request, one reason per field that fails
 * (empty when it allows), e.g. `verb "delete" not in [get, list]`.
 */
export function ruleMismatches(rule: PolicyRule, attrs: RequestAttributes): string[] {
  const reasons: string[] = [];
  if (!verbMatches(rule, attrs.verb)) reasons.push(`verb "${attrs.verb}" not in ${list(rule.verbs)}`);
  const more = attrs.isResourceRequest ? resourceMismatches(rule, attrs) : urlMismatches(rule, attrs);
  return [...reasons, ...more];
}

/** ruleMismatches of a non-resource request: the path. */
function urlMismatches(rule: PolicyRule, attrs: RequestAttributes): string[] {
  if (rule.nonResourceURLs === undefined || rule.nonResourceURLs.length === 0) {
    return [`path "${attrs.path}": the rule has no nonResourceURLs`];
  }
  return nonResourceURLMatches(rule, attrs.path) ? [] : [`path "${attrs.path}" not in ${list(rule.nonResourceURLs)}`];
}

/** ruleMismatches of a resource request: group, resource and name. */
function resourceMismatches(rule: PolicyRule, attrs: RequestAttributes): string[] {
  if (rule.resources === undefined || rule.resources.length === 0) {
    return [`resource "${combinedResource(attrs)}": the rule has no resources`];
  }
  const reasons: string[] = [];
  if (!apiGroupMatches(rule, attrs.apiGroup)) reasons.push(`group "${attrs.apiGroup}" not in ${list(rule.apiGroups)}`);
  if (!resourceMatches(rule, attrs.resource, attrs.subresource)) {
    reasons.push(`resource "${combinedResource(attrs)}" not in ${list(rule.resources)}`);
  }
  if (!resourceNameMatches(rule, attrs.verb, attrs.name)) reasons.push(nameMismatch(rule, attrs));
  return reasons;
}

/** Why the rule's resourceNames do not allow the request. */
function nameMismatch(rule: PolicyRule, attrs: RequestAttributes): string {
  if (attrs.name !== '' && !NAMELESS_VERBS.has(attrs.verb)) {
    return `name "${attrs.name}" not in ${list(rule.resourceNames)}`;
  }
  const what = attrs.name === '' ? `a nameless ${attrs.verb}` : attrs.verb;
  return `the rule's resourceNames ${list(rule.resourceNames)} never allow ${what}`;
}

/** A short rendering of a rule for traces, e.g. `get,list persons.example.com [ada]` or `get /healthz/*`. */
export function describeRule(rule: PolicyRule): string {
  const parts: string[] = [];
  const verbs = rule.verbs.join(',');
  if (rule.resources !== undefined && rule.resources.length > 0) {
    const groups = (rule.apiGroups ?? []).map((g) => (g === '' ? '""' : g)).join(',');
    const names = hasResourceNames(rule) ? ` [${rule.resourceNames!.join(',')}]` : '';
    const where = rule.where ? ` where ${describeCondition(rule.where)}` : '';
    parts.push(`${verbs} ${rule.resources.join(',')} in group ${groups}${names}${where}`);
  }
  if (rule.nonResourceURLs !== undefined && rule.nonResourceURLs.length > 0) {
    parts.push(`${verbs} ${rule.nonResourceURLs.join(',')}`);
  }
  return parts.length === 0 ? `${verbs} (nothing)` : parts.join('; ');
}

/** A condition as messages write it: `spec.owner=ada, labels team=a`. */
export function describeCondition(where: { fieldSelector?: string; labelSelector?: string }): string {
  const parts: string[] = [];
  if (where.fieldSelector) parts.push(where.fieldSelector);
  if (where.labelSelector) parts.push(`labels ${where.labelSelector}`);
  return parts.join(', ');
}

/** A request as reasons write it, e.g. `get persons.example.com "ada"`, `list posts`, `post /login`. */
export function describeRequest(attrs: Omit<RequestAttributes, 'name'> & { name?: string }): string {
  if (!attrs.isResourceRequest) return `${attrs.verb} ${attrs.path}`;
  const group = attrs.apiGroup === '' ? '' : `.${attrs.apiGroup}`;
  const name = attrs.name ? ` "${attrs.name}"` : '';
  return `${attrs.verb} ${combinedResource(attrs)}${group}${name}`;
}
