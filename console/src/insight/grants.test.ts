import { describe, expect, it } from 'vitest';
import type { RuleWithVia } from '../api/insight';
import { groupByResource, isOwnGrant } from './grants';

const via = [{ binding: 'ada-editor', role: 'editor', path: ['editor'] }];
const rule = (resources: string[], apiGroups: string[], verbs = ['get']): RuleWithVia => ({
  apiGroups,
  resources,
  verbs,
  via,
});

describe('grants grouped by resource', () => {
  it('lists a rule under each resource it names, sorted, rules on every resource first and paths last', () => {
    const both = rule(['posts', 'categories'], ['content.svc.run']);
    const users = rule(['users'], ['']);
    const everything = rule(['*'], ['*'], ['*']);
    const health = { nonResourceURLs: ['/healthz'], verbs: ['get'], via };
    const groups = groupByResource([both, users, everything], [health]);
    expect(groups.map((g) => g.title)).toEqual([
      'every resource',
      'categories (content.svc.run)',
      'posts (content.svc.run)',
      'users (core)',
      'paths',
    ]);
    expect(groups[1].rules).toEqual([both]);
    expect(groups[2].rules).toEqual([both]);
    expect(groups[4].rules).toEqual([health]);
  });

  it('keeps the group of a rule on every resource of one group, and gathers rules on one resource', () => {
    const read = rule(['posts'], ['content.svc.run']);
    const write = rule(['posts'], ['content.svc.run'], ['update']);
    const groups = groupByResource([rule(['*'], ['content.svc.run']), read, write], []);
    expect(groups.map((g) => g.title)).toEqual(['every resource (content.svc.run)', 'posts (content.svc.run)']);
    expect(groups[1].rules).toEqual([read, write]);
  });

  it('tells grants through one’s own bindings from those every signed-in user holds', () => {
    expect(isOwnGrant(rule(['posts'], ['']))).toBe(true);
    expect(isOwnGrant({ verbs: ['get'], via: [{ role: 'authenticated', path: ['authenticated'] }] })).toBe(false);
  });
});
