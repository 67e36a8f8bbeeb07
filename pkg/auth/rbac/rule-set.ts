import { RESOURCE_VERBS } from '../../api/verbs';
import type { RequestAttributes } from '../attributes';
import { hasResourceNames, NAMELESS_VERBS, ruleAllows, ruleMatchesRequest } from './rules';
import { ANY, type PolicyRule } from './types';

/**
 * A role's rules compiled into maps, so that a decision is a few lookups
 * (group → resource → name, each level with its `*` entry beside the exact
 * one) and a bit test for the verb; it answers as `ruleAllows` over the list
 * would.
 */

/**
 * Verb bit 0 stands for `*`; other verbs get bits 1–30 on first sight, shared
 * by every RuleSet, so a decision finds its verb's bit once. The usual verbs
 * are registered up front; verbs beyond the bits go to a RuleSet's overflow
 * list, which is checked rule by rule.
 */
const ANY_VERB_BIT = 0;
const MAX_VERB_BIT = 30;
const verbBits = new Map<string, number>();
for (const verb of [...RESOURCE_VERBS, 'post', 'put', 'head', 'options']) verbBits.set(verb, verbBits.size + 1);

/** The verb's bit, assigned on first sight; `undefined` when the bits are used up. */
function bitOf(verb: string): number | undefined {
  if (verb === ANY) return ANY_VERB_BIT;
  let bit = verbBits.get(verb);
  if (bit === undefined && verbBits.size < MAX_VERB_BIT) verbBits.set(verb, (bit = verbBits.size + 1));
  return bit;
}

/** A request with what every RuleSet needs from it worked out once (see `prepareRequest`). */
export interface PreparedRequest {
  attrs: RequestAttributes;
  /** The verb's bit (0 when no rule names the verb: only `*` can allow it). */
  bit: number;
  /** The bits a rule's verbs must share with the request: the verb's and `*`'s. */
  want: number;
  /** Whether names can allow it: it has a name, and its verb is not create, list or deletecollection. */
  named: boolean;
}

/** Works out a request's verb bit and name flag once, for asking many RuleSets. */
export function prepareRequest(attrs: RequestAttributes): PreparedRequest {
  const bit = verbBits.get(attrs.verb) ?? ANY_VERB_BIT;
  return { attrs, bit, want: (1 << bit) | 1, named: attrs.name !== '' && !NAMELESS_VERBS.has(attrs.verb) };
}

/** Rules that agree on a resource, by verb bit: those allowing any name, and those allowing listed names. */
interface Bucket {
  /** Verb bits of the rules without resourceNames. */
  anyMask: number;
  /** bit → the first such rule with that verb */
  anyRules: (PolicyRule | undefined)[];
  byName: Map<string, { mask: number; rules: (PolicyRule | undefined)[] }> | undefined;
}

/** The rules of one resource: for the plural itself, and per subresource. */
interface ResourceNode {
  plural: Bucket | undefined;
  subresources: Map<string, Bucket> | undefined;
}

/** The rules of one group (or `*`): per resource, for `*`, and for `*<slash><subresource>`. */
interface GroupNode {
  resources: Map<string, ResourceNode>;
  anyResource: Bucket | undefined;
  anyPluralSubresources: Map<string, Bucket> | undefined;
}

/** Non-resource rules of one verb (or `*`). */
interface UrlNode {
  any: PolicyRule | undefined;
  exact: Map<string, PolicyRule>;
  /** `[prefix without the *, rule]` */
  prefixes: [string, PolicyRule][];
}

function firstRule(rules: (PolicyRule | undefined)[], mask: number, bit: number): PolicyRule | undefined {
  return bit !== ANY_VERB_BIT && (mask & (1 << bit)) !== 0 ? rules[bit] : rules[ANY_VERB_BIT];
}

function bucketAllows(
  bucket: Bucket | undefined,
  want: number,
  bit: number,
  name: string,
  named: boolean,
): PolicyRule | undefined {
  if (bucket === undefined) return undefined;
  if ((bucket.anyMask & want) !== 0) return firstRule(bucket.anyRules, bucket.anyMask, bit);
  if (!named || bucket.byName === undefined) return undefined;
  const entry = bucket.byName.get(name);
  return entry !== undefined && (entry.mask & want) !== 0 ? firstRule(entry.rules, entry.mask, bit) : undefined;
}

/** Adds to `names` the names a bucket's named rules allow with a verb in `want`. */
function addNamesOf(bucket: Bucket, want: number, names: Set<string>): void {
  if (bucket.byName === undefined) return;
  for (const [name, entry] of bucket.byName) if ((entry.mask & want) !== 0) names.add(name);
}

/** A role's (or a user's) rules, indexed for fast decisions. */
export class RuleSet {
  private readonly groups = new Map<string, GroupNode>();
  private readonly urlRules = new Map<string, UrlNode>();
  /** `groups.get('*')`, kept apart to save a lookup per decision. */
  private anyGroup: GroupNode | undefined;
  /** Resource rules of verbs beyond the bits (more than 30 distinct verbs): checked one by one. */
  private readonly overflow: PolicyRule[] = [];
  /**
   * Rules with a condition (`where`): never in the maps, so that an unconditional decision costs what it did
   * without them; `conditionalMatches` reads them when no rule allows a request outright.
   */
  readonly conditional: readonly PolicyRule[];

  constructor(readonly rules: readonly PolicyRule[]) {
    const conditional: PolicyRule[] = [];
    this.conditional = conditional;
    for (const rule of rules) {
      if (rule.where !== undefined) {
        if (rule.resources !== undefined && rule.resources.length > 0) conditional.push(rule);
        continue;
      }
      if (rule.resources !== undefined && rule.resources.length > 0) this.addResourceRule(rule);
      if (rule.nonResourceURLs !== undefined && rule.nonResourceURLs.length > 0) {
        for (const verb of rule.verbs) this.addUrlRule(verb, rule);
      }
    }
  }

  /** The first indexed rule that allows the request, or `undefined`. */
  allows(attrs: RequestAttributes): PolicyRule | undefined {
    return this.allowsPrepared(prepareRequest(attrs));
  }

  /** `allows` for a request prepared once for several RuleSets: a few map lookups, no allocation. */
  allowsPrepared(request: PreparedRequest): PolicyRule | undefined {
    const attrs = request.attrs;
    if (!attrs.isResourceRequest) {
      return (
        this.urlAllows(this.urlRules.get(attrs.verb), attrs.path) ?? this.urlAllows(this.urlRules.get(ANY), attrs.path)
      );
    }
    return (
      this.groupAllows(this.groups.get(attrs.apiGroup), request) ??
      this.groupAllows(this.anyGroup, request) ??
      (this.overflow.length === 0 ? undefined : this.overflow.find((rule) => ruleAllows(rule, attrs)))
    );
  }

  /** The conditional rules that would allow the request if their condition held. */
  conditionalMatches(attrs: RequestAttributes): PolicyRule[] {
    const found: PolicyRule[] = [];
    for (const rule of this.conditional) if (ruleMatchesRequest(rule, attrs)) found.push(rule);
    return found;
  }

  /**
   * For a request without a name (a collection watch): `'all'` when a rule
   * without resourceNames allows it, else the names that rules with
   * resourceNames allow for it (empty: none). Verbs that names never allow
   * (create, list, deletecollection) get `'all'` or nothing.
   */
  namesAllowed(attrs: Omit<RequestAttributes, 'name'>): 'all' | Set<string> {
    const names = new Set<string>();
    if (!attrs.isResourceRequest) return this.allows({ ...attrs, name: '' }) ? 'all' : names;
    if (this.indexedNamesAllowed(attrs, names) || this.overflowNamesAllowed(attrs, names)) return 'all';
    return names;
  }

  /** namesAllowed over the indexed rules: true for `'all'`, else the names are added to `names`. */
  private indexedNamesAllowed(attrs: Omit<RequestAttributes, 'name'>, names: Set<string>): boolean {
    const want = (1 << (verbBits.get(attrs.verb) ?? ANY_VERB_BIT)) | 1;
    const collect = !NAMELESS_VERBS.has(attrs.verb);
    for (const groupKey of [attrs.apiGroup, ANY]) {
      const group = this.groups.get(groupKey);
      if (group === undefined) continue;
      for (const bucket of bucketsOf(group, attrs.resource, attrs.subresource)) {
        if (bucket === undefined) continue;
        if ((bucket.anyMask & want) !== 0) return true;
        if (collect) addNamesOf(bucket, want, names);
      }
    }
    return false;
  }

  /** namesAllowed over the overflow rules (verbs without a bit): true for `'all'`, else the names are added. */
  private overflowNamesAllowed(attrs: Omit<RequestAttributes, 'name'>, names: Set<string>): boolean {
    for (const rule of this.overflow) {
      if (!hasResourceNames(rule)) {
        if (ruleAllows(rule, { ...attrs, name: '' })) return true;
        continue;
      }
      for (const name of rule.resourceNames!) if (ruleAllows(rule, { ...attrs, name })) names.add(name);
    }
    return false;
  }

  private addResourceRule(rule: PolicyRule): void {
    const bits = this.verbBitsOf(rule);
    if (bits.length === 0) return;
    for (const groupName of rule.apiGroups ?? []) {
      const group = this.groupNode(groupName);
      for (const resource of rule.resources!) addResource(group, resource, rule, bits);
    }
  }

  /** The bits of a rule's verbs; a verb without one puts the rule in the overflow (checked rule by rule). */
  private verbBitsOf(rule: PolicyRule): number[] {
    const bits: number[] = [];
    for (const verb of rule.verbs) {
      const bit = bitOf(verb);
      if (bit === undefined) {
        if (!this.overflow.includes(rule)) this.overflow.push(rule);
      } else if (!bits.includes(bit)) {
        bits.push(bit);
      }
    }
    return bits;
  }

  /** The node of an API group, created empty on first use. */
  private groupNode(groupName: string): GroupNode {
    let group = this.groups.get(groupName);
    if (group === undefined) {
      this.groups.set(
        groupName,
        (group = { resources: new Map(), anyResource: undefined, anyPluralSubresources: undefined }),
      );
      if (groupName === ANY) this.anyGroup = group;
    }
    return group;
  }

  private addUrlRule(verb: string, rule: PolicyRule): void {
    let node = this.urlRules.get(verb);
    if (node === undefined) this.urlRules.set(verb, (node = { any: undefined, exact: new Map(), prefixes: [] }));
    for (const url of rule.nonResourceURLs!) {
      if (url === ANY) node.any ??= rule;
      else if (url.endsWith(ANY)) node.prefixes.push([url.slice(0, -1), rule]);
      else if (!node.exact.has(url)) node.exact.set(url, rule);
    }
  }

  private groupAllows(group: GroupNode | undefined, request: PreparedRequest): PolicyRule | undefined {
    if (group === undefined) return undefined;
    const { attrs, want, bit, named } = request;
    const found = bucketAllows(group.anyResource, want, bit, attrs.name, named);
    if (found !== undefined) return found;
    const node = group.resources.get(attrs.resource);
    if (attrs.subresource === '')
      return node === undefined ? undefined : bucketAllows(node.plural, want, bit, attrs.name, named);
    return (
      (node?.subresources === undefined
        ? undefined
        : bucketAllows(node.subresources.get(attrs.subresource), want, bit, attrs.name, named)) ??
      (group.anyPluralSubresources === undefined
        ? undefined
        : bucketAllows(group.anyPluralSubresources.get(attrs.subresource), want, bit, attrs.name, named))
    );
  }

  private urlAllows(node: UrlNode | undefined, path: string): PolicyRule | undefined {
    if (node === undefined) return undefined;
    if (node.any !== undefined) return node.any;
    const exact = node.exact.get(path);
    if (exact !== undefined) return exact;
    const prefixes = node.prefixes;
    for (let i = 0; i < prefixes.length; i++) if (path.startsWith(prefixes[i][0])) return prefixes[i][1];
    return undefined;
  }
}

function addToBucket(bucket: Bucket | undefined, rule: PolicyRule, bits: readonly number[]): Bucket {
  const b = bucket ?? { anyMask: 0, anyRules: [], byName: undefined };
  if (!hasResourceNames(rule)) {
    for (const bit of bits) {
      b.anyMask |= 1 << bit;
      b.anyRules[bit] ??= rule;
    }
    return b;
  }
  b.byName ??= new Map();
  for (const name of rule.resourceNames!) {
    let entry = b.byName.get(name);
    if (entry === undefined) b.byName.set(name, (entry = { mask: 0, rules: [] }));
    for (const bit of bits) {
      entry.mask |= 1 << bit;
      entry.rules[bit] ??= rule;
    }
  }
  return b;
}

function addResource(group: GroupNode, resource: string, rule: PolicyRule, bits: readonly number[]): void {
  if (resource === ANY) {
    group.anyResource = addToBucket(group.anyResource, rule, bits);
    return;
  }
  const slash = resource.indexOf('/');
  const plural = slash < 0 ? resource : resource.slice(0, slash);
  const subresource = slash < 0 ? '' : resource.slice(slash + 1);
  if (slash >= 0 && plural === ANY) {
    group.anyPluralSubresources ??= new Map();
    group.anyPluralSubresources.set(subresource, addToBucket(group.anyPluralSubresources.get(subresource), rule, bits));
    return;
  }
  let node = group.resources.get(plural);
  if (node === undefined) group.resources.set(plural, (node = { plural: undefined, subresources: undefined }));
  if (slash < 0) {
    node.plural = addToBucket(node.plural, rule, bits);
  } else {
    node.subresources ??= new Map();
    node.subresources.set(subresource, addToBucket(node.subresources.get(subresource), rule, bits));
  }
}

function bucketsOf(group: GroupNode, resource: string, subresource: string): (Bucket | undefined)[] {
  const node = group.resources.get(resource);
  if (subresource === '') return [group.anyResource, node?.plural];
  return [group.anyResource, node?.subresources?.get(subresource), group.anyPluralSubresources?.get(subresource)];
}

/** `ruleSet.namesAllowed(attrs)`: the names a collection watch may see (docs/security.md). */
export function namesAllowed(ruleSet: RuleSet, attrs: Omit<RequestAttributes, 'name'>): 'all' | Set<string> {
  return ruleSet.namesAllowed(attrs);
}
