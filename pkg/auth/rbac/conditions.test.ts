import {
  bindCondition,
  conditionCovers,
  conditionErrors,
  conditionHolds,
  conditionFields,
  USER_NAME_VARIABLE,
} from './conditions';
import { uncoveredRules } from './escalation';
import { canonicalRules } from './effective';
import { RuleSet } from './rule-set';
import { ruleAllows } from './rules';
import type { PolicyRule } from './types';

const ada = { name: 'ada', groups: ['authenticated', 'anonymous'] };
const own = { fieldSelector: `spec.owner=${USER_NAME_VARIABLE}` };
const ownPosts: PolicyRule = {
  apiGroups: ['content.svc.run'],
  resources: ['posts'],
  verbs: ['get', 'list'],
  where: own,
};
const post = (owner: string, labels?: Record<string, string>) => ({
  apiVersion: 'content.svc.run/v1alpha1',
  kind: 'Post',
  metadata: { name: 'p', labels },
  spec: { owner },
});
const specValue = (object: any, index: string) =>
  index.startsWith('spec.') ? [String(object.spec[index.slice(5)])] : [];
const attrs = (verb: string, name = '') => ({
  isResourceRequest: true,
  path: '/apis/content.svc.run/v1alpha1/posts',
  verb,
  apiGroup: 'content.svc.run',
  resource: 'posts',
  subresource: '',
  name,
});

describe('a condition bound to a caller', () => {
  it('holds on the objects whose indexed fields and labels match, the variable filled in', () => {
    const bound = bindCondition({ ...own, labelSelector: 'team in (a,b)' }, ada, false)!;
    expect(bound.where).toEqual({ fieldSelector: 'spec.owner=ada', labelSelector: 'team in (a,b)' });
    expect(conditionHolds(bound, post('ada', { team: 'a' }), specValue)).toBe(true);
    expect(conditionHolds(bound, post('bob', { team: 'a' }), specValue)).toBe(false);
    expect(conditionHolds(bound, post('ada'), specValue)).toBe(false);
  });

  it('takes a user name with selector syntax in it as a plain value, never as more requirements', () => {
    const mallory = { name: 'x,spec.owner!=y', groups: [] };
    const bound = bindCondition(own, mallory, false)!;
    expect(bound.fields).toEqual([{ field: 'spec.owner', op: 'in', values: ['x,spec.owner!=y'] }]);
    expect(conditionHolds(bound, post('z'), specValue)).toBe(false);
  });

  it('never holds for the anonymous visitor when it names the caller', () => {
    expect(bindCondition(own, { name: 'anonymous', groups: ['anonymous'] }, true)).toBeUndefined();
    expect(bindCondition({ labelSelector: 'public=true' }, { name: 'anonymous', groups: [] }, true)).toBeDefined();
  });
});

describe('checking a condition when a role is written', () => {
  it.each([
    [{ fieldSelector: 'spec.owner=${user.id}' }, 'unknown variable "${user.id}"'],
    [{ fieldSelector: '${user.name}=ada' }, 'may stand only in a value'],
    [{ labelSelector: 'team in (' }, 'unable to parse'],
    [{}, 'needs a fieldSelector or a labelSelector'],
    [{ fieldSelector: 'spec.owner=svc-user-name-variable-0a1b2c' }, 'is reserved'],
  ])('refuses %j', (where, message) => {
    expect(conditionErrors(where).join('; ')).toContain(message);
  });

  it('accepts the variable in values and names the fields it uses', () => {
    expect(conditionErrors({ fieldSelector: 'spec.owner=${user.name},spec.state!=draft' })).toEqual([]);
    expect(conditionFields({ fieldSelector: 'spec.owner=${user.name},spec.state!=draft' })).toEqual([
      'spec.owner',
      'spec.state',
    ]);
  });
});

describe('a conditional rule in decisions', () => {
  it('allows nothing outright, and is found as a conditional match for its verbs only', () => {
    const set = new RuleSet([ownPosts]);
    expect(set.allows(attrs('get', 'p'))).toBeUndefined();
    expect(ruleAllows(ownPosts, attrs('get', 'p'))).toBe(false);
    expect(set.conditionalMatches(attrs('list'))).toEqual([ownPosts]);
    expect(set.conditionalMatches(attrs('delete', 'p'))).toEqual([]);
  });

  it('keeps its condition through the effective-rules canonical form', () => {
    expect(canonicalRules([ownPosts, { ...ownPosts, where: undefined }])).toEqual(
      expect.arrayContaining([expect.objectContaining({ where: own }), expect.not.objectContaining({ where: own })]),
    );
    expect(canonicalRules([ownPosts])[0].where).toEqual(own);
  });
});

describe('escalation with conditions', () => {
  const unconditional: PolicyRule = { ...ownPosts, where: undefined };
  it('covers the same condition or a narrower one, never the rule without it', () => {
    expect(uncoveredRules([ownPosts], [ownPosts])).toEqual([]);
    const narrower = { ...ownPosts, where: { ...own, labelSelector: 'team=a' } };
    expect(uncoveredRules([ownPosts], [narrower])).toEqual([]);
    expect(uncoveredRules([ownPosts], [unconditional])).toEqual([unconditional]);
    const other = { ...ownPosts, where: { fieldSelector: 'spec.editor=${user.name}' } };
    expect(uncoveredRules([ownPosts], [other])).toEqual([other]);
  });

  it('lets an unconditional rule cover any condition', () => {
    expect(uncoveredRules([unconditional], [ownPosts])).toEqual([]);
  });

  it('compares conditions on their requirements, not their spelling', () => {
    expect(conditionCovers({ fieldSelector: 'spec.a=(x,y)' }, { fieldSelector: 'spec.b=1,spec.a=(y,x)' })).toBe(true);
    expect(conditionCovers({ fieldSelector: 'spec.a=x' }, { fieldSelector: 'spec.a!=x' })).toBe(false);
  });
});
