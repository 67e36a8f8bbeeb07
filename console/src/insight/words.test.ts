import { describe, expect, it } from 'vitest';
import { actionsInWords, conditionInWords, conditionsInWords, requirementsOf, ruleInWords, viaInWords } from './words';

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

  it('reads what a rule allows on its resources, with names and the condition as "only where"', () => {
    const rule = {
      verbs: ['update'],
      resources: ['posts'],
      resourceNames: ['hello'],
      where: { fieldSelector: 'spec.owner=ada' },
    };
    expect(actionsInWords(rule, { user: 'ada', self: true })).toBe('update named hello only where spec.owner = you');
    expect(actionsInWords({ verbs: ['*'], resources: ['*'] })).toBe('every verb');
    expect(actionsInWords({ verbs: ['get'], nonResourceURLs: ['/healthz', '/version'] })).toBe(
      'get /healthz, /version',
    );
    expect(actionsInWords({ verbs: ['*'], nonResourceURLs: ['*'] })).toBe('every verb on every path');
    // `users/-` is the caller's own user: said whom it is.
    expect(actionsInWords({ verbs: ['get'], resources: ['users'], resourceNames: ['-'] }, { self: true })).toBe(
      'get named - (you)',
    );
  });

  it('reads where a grant comes from: the path from the bound role, and its binding or who holds it', () => {
    expect(viaInWords({ binding: 'ada-author', role: 'post-author', path: ['post-author', 'post-contributor'] })).toBe(
      'post-author → post-contributor (binding ada-author)',
    );
    expect(viaInWords({ role: 'authenticated', path: ['authenticated'] })).toBe('authenticated (every signed-in user)');
    expect(viaInWords({ role: 'anonymous', path: [] })).toBe('anonymous (everyone, even without signing in)');
  });
});
