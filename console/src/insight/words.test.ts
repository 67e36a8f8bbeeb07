import { describe, expect, it } from 'vitest';
import { conditionInWords, conditionsInWords, requirementsOf, ruleInWords } from './words';

describe('rules and conditions in words', () => {
  it('reads a conditional rule as "update posts where spec.owner = you" on one’s own page', () => {
    const rule = {
      apiGroups: ['content.svc.run'],
      resources: ['posts'],
      verbs: ['update', 'delete'],
      where: { fieldSelector: 'spec.owner=${user.name}' },
    };
    expect(ruleInWords(rule, { user: 'ada', self: true })).toBe(
      'update, delete posts (content.svc.run) where spec.owner = you',
    );
    expect(ruleInWords(rule, { user: 'ada' })).toBe('update, delete posts (content.svc.run) where spec.owner = ada');
  });

  it('names the user a filled-in condition names, and keeps other values as written', () => {
    expect(conditionInWords({ fieldSelector: 'spec.owner=ada,spec.state!=draft' }, { user: 'ada', self: true })).toBe(
      'spec.owner = you and spec.state ≠ draft',
    );
  });

  it('reads label conditions with their set syntax intact', () => {
    expect(requirementsOf('example.com/category in (news,tips),tier=gold')).toEqual([
      'example.com/category in (news,tips)',
      'tier=gold',
    ]);
    expect(conditionInWords({ labelSelector: 'example.com/category in (news,tips)' })).toBe(
      'label example.com/category in (news,tips)',
    );
  });

  it('joins several conditions with "or"', () => {
    expect(
      conditionsInWords([{ fieldSelector: 'spec.owner=ada' }, { labelSelector: 'team=news' }], { user: 'ada' }),
    ).toBe('where spec.owner = ada, or where label team=news');
  });

  it('reads wildcards, the core group, names and paths', () => {
    expect(ruleInWords({ apiGroups: ['*'], resources: ['*'], verbs: ['*'] })).toBe('every verb on everything');
    expect(ruleInWords({ apiGroups: [''], resources: ['users'], resourceNames: ['ada'], verbs: ['get'] })).toBe(
      'get users (core) named ada',
    );
    expect(ruleInWords({ nonResourceURLs: ['/metrics'], verbs: ['get'] })).toBe('get /metrics');
  });
});
