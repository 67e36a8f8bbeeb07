import { describe, expect, it } from 'vitest';
import { draftOfRule, isEditable, ruleOf } from './rule-draft';
import { withUserName } from '../components/rule-rows';

describe('a rule as the role editor edits it', () => {
  it('round-trips a conditional rule through the fields', () => {
    const rule = {
      apiGroups: ['content.svc.run', ''],
      resources: ['posts'],
      verbs: ['get', 'update'],
      where: { fieldSelector: 'spec.owner=${user.name}', labelSelector: 'team in (news,tips)' },
    };
    expect(draftOfRule(rule)).toEqual({
      apiGroups: 'content.svc.run, core',
      resources: 'posts',
      verbs: 'get, update',
      fieldSelector: 'spec.owner=${user.name}',
      labelSelector: 'team in (news,tips)',
    });
    expect(ruleOf(draftOfRule(rule))).toEqual(rule);
  });

  it('leaves rules on paths or named objects to be kept as they are', () => {
    expect(isEditable({ nonResourceURLs: ['/metrics'], verbs: ['get'] })).toBe(false);
    expect(isEditable({ apiGroups: [''], resources: ['users'], resourceNames: ['ada'], verbs: ['get'] })).toBe(false);
    expect(isEditable({ apiGroups: [''], resources: ['users'], verbs: ['get'] })).toBe(true);
  });

  it('offers ${user.name}: a whole owner condition, or after a trailing "="', () => {
    expect(withUserName('')).toBe('spec.owner=${user.name}');
    expect(withUserName('spec.author=')).toBe('spec.author=${user.name}');
    expect(withUserName('spec.state=draft')).toBe('spec.state=draft,spec.owner=${user.name}');
  });
});
