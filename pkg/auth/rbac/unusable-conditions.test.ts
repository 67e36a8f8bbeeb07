import { conditionalResources, unusableConditions } from './unusable-conditions';
import type { PolicyRule } from './types';

const own: PolicyRule = {
  apiGroups: ['example.com'],
  resources: ['persons', 'persons/status', 'pets'],
  verbs: ['list'],
  where: { fieldSelector: 'spec.owner=${user.name}' },
};
const team: PolicyRule = { apiGroups: ['*'], resources: ['*'], verbs: ['get'], where: { labelSelector: 'team=a' } };
const plain: PolicyRule = { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] };

describe('conditional rules that grant nothing', () => {
  it('are looked up for the named resources of conditional rules only, once each', () => {
    expect(conditionalResources([own, team, plain, own])).toEqual([
      { group: 'example.com', plural: 'persons' },
      { group: 'example.com', plural: 'pets' },
    ]);
  });

  it('are those on a model not served, or on a field the model does not index', () => {
    const indexes: Record<string, string[]> = { persons: ['metadata.name', 'spec.owner'], pets: ['metadata.name'] };
    const unusable = unusableConditions([own, team, plain], (_group, plural) => indexes[plural]);
    expect(unusable).toEqual([
      {
        rule: own,
        resource: 'pets.example.com',
        reason: 'FieldNotIndexed',
        message: expect.stringContaining('does not index "spec.owner"'),
      },
    ]);
    const unserved = unusableConditions([own], (_group, plural) => (plural === 'pets' ? undefined : indexes[plural]));
    expect(unserved.map((u) => [u.resource, u.reason])).toEqual([['pets.example.com', 'ModelNotServed']]);
  });

  it('are none when every model is served with the fields', () => {
    expect(unusableConditions([own, team], () => ['spec.owner'])).toEqual([]);
  });
});
