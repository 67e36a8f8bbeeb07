import type { RequestAttributes } from '../attributes';
import { hasResourceNames, NAMELESS_VERBS } from './rules';
import { ANY, type PolicyRule } from './types';

/**
 * A role's rules compiled into maps, so that a decision is a few lookups
 * (verb → group → resource → name), each level with its `*` bucket beside
 * the exact one; it answers as `ruleAllows` over the list would.
 */

/** Rules that agree on verb, group and resource: one allowing any name, and those allowing listed names. */
interface Bucket {
  any: PolicyRule | undefined;
  byName: Map<string, PolicyRule> | undefined;
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

function addToBucket(bucket: Bucket | undefined, rule: PolicyRule): Bucket {
  const b = bucket ?? { any: undefined, byName: undefined };
  if (!hasResourceNames(rule)) {
    b.any ??= rule;
  } else {
    b.byName ??= new Map();
    for (const name of rule.resourceNames!) if (!b.byName.has(name)) b.byName.set(name, rule);
  }
  return b;
}

function bucketAllows(bucket: Bucket | undefined, name: string, named: boolean): PolicyRule | undefined {
  if (bucket === undefined) return undefined;
  if (bucket.any !== undefined) return bucket.any;
  return named && bucket.byName !== undefined ? bucket.byName.get(name) : undefined;
}

/** A role's (or a user's) rules, indexed for fast decisions. */
export class RuleSet {
  private readonly resourceRules = new Map<string, Map<string, GroupNode>>();
  private readonly urlRules = new Map<string, UrlNode>();

  constructor(readonly rules: readonly PolicyRule[]) {
    for (const rule of rules) {
      for (const verb of rule.verbs) {
        if (rule.resources !== undefined && rule.resources.length > 0) this.addResourceRule(verb, rule);
        if (rule.nonResourceURLs !== undefined && rule.nonResourceURLs.length > 0) this.addUrlRule(verb, rule);
      }
    }
  }

  /** The first indexed rule that allows the request, or `undefined`. Allocates nothing. */
  allows(attrs: RequestAttributes): PolicyRule | undefined {
    if (!attrs.isResourceRequest) {
      return this.urlAllows(this.urlRules.get(attrs.verb), attrs.path) ?? this.urlAllows(this.urlRules.get(ANY), attrs.path);
    }
    const named = attrs.name !== '' && !NAMELESS_VERBS.has(attrs.verb);
    return this.verbAllows(this.resourceRules.get(attrs.verb), attrs, named)
      ?? this.verbAllows(this.resourceRules.get(ANY), attrs, named);
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
    const collect = !NAMELESS_VERBS.has(attrs.verb);
    for (const verb of [attrs.verb, ANY]) {
      for (const groupKey of [attrs.apiGroup, ANY]) {
        const group = this.resourceRules.get(verb)?.get(groupKey);
        if (group === undefined) continue;
        for (const bucket of this.bucketsOf(group, attrs.resource, attrs.subresource)) {
          if (bucket === undefined) continue;
          if (bucket.any !== undefined) return 'all';
          if (collect && bucket.byName !== undefined) for (const name of bucket.byName.keys()) names.add(name);
        }
      }
    }
    return names;
  }

  private addResourceRule(verb: string, rule: PolicyRule): void {
    let groups = this.resourceRules.get(verb);
    if (groups === undefined) this.resourceRules.set(verb, (groups = new Map()));
    for (const groupName of rule.apiGroups ?? []) {
      let group = groups.get(groupName);
      if (group === undefined) {
        groups.set(groupName, (group = { resources: new Map(), anyResource: undefined, anyPluralSubresources: undefined }));
      }
      for (const resource of rule.resources!) this.addResource(group, resource, rule);
    }
  }

  private addResource(group: GroupNode, resource: string, rule: PolicyRule): void {
    if (resource === ANY) {
      group.anyResource = addToBucket(group.anyResource, rule);
      return;
    }
    const slash = resource.indexOf('/');
    const plural = slash < 0 ? resource : resource.slice(0, slash);
    const subresource = slash < 0 ? '' : resource.slice(slash + 1);
    if (slash >= 0 && plural === ANY) {
      group.anyPluralSubresources ??= new Map();
      group.anyPluralSubresources.set(subresource, addToBucket(group.anyPluralSubresources.get(subresource), rule));
      return;
    }
    let node = group.resources.get(plural);
    if (node === undefined) group.resources.set(plural, (node = { plural: undefined, subresources: undefined }));
    if (slash < 0) {
      node.plural = addToBucket(node.plural, rule);
    } else {
      node.subresources ??= new Map();
      node.subresources.set(subresource, addToBucket(node.subresources.get(subresource), rule));
    }
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

  private verbAllows(groups: Map<string, GroupNode> | undefined, attrs: RequestAttributes, named: boolean): PolicyRule | undefined {
    if (groups === undefined) return undefined;
    return this.groupAllows(groups.get(attrs.apiGroup), attrs, named) ?? this.groupAllows(groups.get(ANY), attrs, named);
  }

  private groupAllows(group: GroupNode | undefined, attrs: RequestAttributes, named: boolean): PolicyRule | undefined {
    if (group === undefined) return undefined;
    const found = bucketAllows(group.anyResource, attrs.name, named);
    if (found !== undefined) return found;
    const node = group.resources.get(attrs.resource);
    if (attrs.subresource === '') return node === undefined ? undefined : bucketAllows(node.plural, attrs.name, named);
    return (node?.subresources === undefined ? undefined : bucketAllows(node.subresources.get(attrs.subresource), attrs.name, named))
      ?? (group.anyPluralSubresources === undefined ? undefined
        : bucketAllows(group.anyPluralSubresources.get(attrs.subresource), attrs.name, named));
  }

  private bucketsOf(group: GroupNode, resource: string, subresource: string): (Bucket | undefined)[] {
    const node = group.resources.get(resource);
    if (subresource === '') return [group.anyResource, node?.plural];
    return [group.anyResource, node?.subresources?.get(subresource), group.anyPluralSubresources?.get(subresource)];
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

/** `ruleSet.namesAllowed(attrs)`: the names a collection watch may see (API.md §9). */
export function namesAllowed(ruleSet: RuleSet, attrs: Omit<RequestAttributes, 'name'>): 'all' | Set<string> {
  return ruleSet.namesAllowed(attrs);
}
