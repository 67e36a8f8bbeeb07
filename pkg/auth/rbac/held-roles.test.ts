import { enforcedRole } from './held-roles';
import { DEPENDENCIES_ANNOTATION, observedDefinitionOf, type Role } from './types';

const own = { apiGroups: ['example.com'], resources: ['persons'], verbs: ['get'] };
const inherited = { apiGroups: ['example.com'], resources: ['persons'], verbs: ['delete'] };

function role(dependencies: string, generation = 1): Role {
  return {
    apiVersion: 'v1alpha1',
    kind: 'Role',
    metadata: { name: 'r', generation, annotations: { [DEPENDENCIES_ANNOTATION]: dependencies } },
    rules: [own],
  };
}

describe('enforcedRole', () => {
  const computed = role('["deleter"]');
  const status = {
    observedGeneration: 1,
    observedDefinition: observedDefinitionOf(computed),
    rules: [own, inherited],
    uiPermissions: [],
    contributors: [{ name: 'deleter', via: 'dependency' as const, through: 'r' }],
  };

  it('enforces the status computed for the role as it is', () => {
    const enforced = enforcedRole({ ...computed, status });
    expect(enforced.source).toBe('status');
    expect(enforced.ruleSet.rules).toEqual([own, inherited]);
  });

  it('enforces only the own rules once the rules changed (generation) or the dependencies changed (annotations)', () => {
    expect(enforcedRole({ ...role('["deleter"]', 2), status }).ruleSet.rules).toEqual([own]);
    const dropped = enforcedRole({ ...role('[]'), status });
    expect(dropped.source).toBe('own');
    expect(dropped.ruleSet.rules).toEqual([own]);
  });

  it('enforces only the own rules before any status', () => {
    expect(enforcedRole(computed).ruleSet.rules).toEqual([own]);
  });
});
