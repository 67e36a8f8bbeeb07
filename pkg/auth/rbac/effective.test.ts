import { withAdmissionStamp, withStamp } from './admission';
import { canonicalRules, computeEffective, rolesAffectedBy, SimpleRoleGraph } from './effective';
import type { PolicyRule, Role } from './types';

interface RoleSpec {
  rules?: PolicyRule[];
  deps?: string[];
  aggregateTo?: string[];
  ui?: string[];
}

function role(name: string, spec: RoleSpec = {}): Role {
  const annotations: Record<string, string> = {};
  if (spec.deps) annotations['rbac.authorization.svc.run/dependencies'] = JSON.stringify(spec.deps);
  if (spec.ui) annotations['rbac.authorization.svc.run/ui-permissions'] = JSON.stringify(spec.ui);
  const labels = Object.fromEntries(
    (spec.aggregateTo ?? []).map((t) => [`rbac.authorization.svc.run/aggregate-to-${t}`, 'true']),
  );
  // Stamped as the apiserver stamps what its role-write check admitted.
  return withAdmissionStamp({
    apiVersion: 'v1alpha1',
    kind: 'Role',
    metadata: { name, annotations, labels },
    rules: spec.rules ?? [],
  });
}
const get = (resource: string): PolicyRule => ({ verbs: ['get'], apiGroups: ['g'], resources: [resource] });

describe('computeEffective', () => {
  it('includes dependencies and aggregated roles transitively, with their dependencies', () => {
    const graph = new SimpleRoleGraph([
      role('editor', { rules: [get('own')], deps: ['viewer'], ui: ['posts:manage'] }),
      role('viewer', { rules: [get('viewed')], deps: ['base'], ui: ['posts:view'] }),
      role('base', { rules: [get('base')] }),
      role('plugin-tpl', { rules: [get('plugin')], aggregateTo: ['viewer'], deps: ['plugin-dep'] }),
      role('plugin-dep', { rules: [get('plugin-dep')] }),
      role('nested-tpl', { rules: [get('nested')], aggregateTo: ['plugin-tpl'], ui: ['nested:x'] }),
      role('unrelated', { rules: [get('unrelated')] }),
    ]);
    const effective = computeEffective(graph, 'editor');
    expect(effective.rules.map((r) => r.resources![0]).sort()).toEqual([
      'base',
      'nested',
      'own',
      'plugin',
      'plugin-dep',
      'viewed',
    ]);
    expect(effective.uiPermissions).toEqual(['nested:x', 'posts:manage', 'posts:view']);
    expect(effective.contributors).toEqual([
      { name: 'base', via: 'dependency', through: 'viewer' },
      { name: 'nested-tpl', via: 'aggregation', through: 'plugin-tpl' },
      { name: 'plugin-dep', via: 'dependency', through: 'plugin-tpl' },
      { name: 'plugin-tpl', via: 'aggregation', through: 'viewer' },
      { name: 'viewer', via: 'dependency', through: 'editor' },
    ]);
  });

  it('survives cycles and skips missing roles', () => {
    const graph = new SimpleRoleGraph([
      role('a', { rules: [get('a')], deps: ['b', 'ghost'] }),
      role('b', { rules: [get('b')], deps: ['a'], aggregateTo: ['a'] }),
    ]);
    const effective = computeEffective(graph, 'a');
    expect(effective.rules).toEqual([get('a'), get('b')]);
    expect(effective.contributors).toEqual([{ name: 'b', via: 'dependency', through: 'a' }]);
    expect(computeEffective(graph, 'ghost')).toEqual({ rules: [], uiPermissions: [], contributors: [] });
  });

  it("follows no edge that an unadmitted role declares, says why, and keeps that role's own rules", () => {
    const unstamped = (r: Role): Role => withStamp(r, undefined);
    const graph = new SimpleRoleGraph([
      unstamped(role('planted', { rules: [get('planted')], deps: ['super'] })),
      unstamped(role('public-tpl', { rules: [get('tpl')], aggregateTo: ['anonymous'] })),
      role('anonymous', { rules: [get('public')], deps: ['planted'] }),
      role('super', { rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }] }),
      // Stamped, then changed without the apiserver: the stamp no longer admits it.
      { ...role('edited', { rules: [get('edited')] }), rules: [get('edited'), get('secrets')] },
      role('reader', { deps: ['edited'] }),
    ]);
    const anonymous = computeEffective(graph, 'anonymous');
    expect(anonymous.rules).toEqual([get('planted'), get('public')]);
    expect(anonymous.contributors).toEqual([{ name: 'planted', via: 'dependency', through: 'anonymous' }]);
    expect(anonymous.refused).toEqual([
      { name: 'public-tpl', via: 'aggregation', through: 'anonymous', message: expect.stringMatching(/public-tpl/) },
      { name: 'super', via: 'dependency', through: 'planted', message: expect.stringMatching(/"planted" was not/) },
    ]);
    // An admitted edge to a changed role still brings that role's own rules (as the authoriser enforces them).
    expect(computeEffective(graph, 'reader').rules).toEqual([get('edited'), get('secrets')]);
    expect(computeEffective(graph, 'super').refused).toBeUndefined();
  });

  it('leaves out roles marked for deletion', () => {
    const marked = role('leaving', { rules: [get('leaving')], aggregateTo: ['target'] });
    marked.metadata.deletionTimestamp = '2026-01-01T00:00:00Z';
    const graph = new SimpleRoleGraph([marked, role('target', { rules: [get('target')], deps: ['leaving'] })]);
    expect(computeEffective(graph, 'target')).toEqual({ rules: [get('target')], uiPermissions: [], contributors: [] });
    expect(computeEffective(graph, 'leaving').rules).toEqual([]);
  });

  it('gives the same rules whatever the order and duplication of the input', () => {
    const r1: PolicyRule = {
      verbs: ['list', 'get', 'get'],
      apiGroups: ['g'],
      resources: ['b', 'a'],
      resourceNames: [],
    };
    const r2: PolicyRule = { verbs: ['get', 'list'], apiGroups: ['g'], resources: ['a', 'b'] };
    const r3: PolicyRule = { verbs: ['get'], nonResourceURLs: ['/x'] };
    expect(canonicalRules([r1, r3, r2])).toEqual(canonicalRules([r3, r2, r2, r1]));
    expect(canonicalRules([r1, r3, r2])).toEqual([r2, { verbs: ['get'], nonResourceURLs: ['/x'] }]);
  });
});

describe('rolesAffectedBy', () => {
  const graph = new SimpleRoleGraph([
    role('editor', { deps: ['viewer'] }),
    role('viewer', { deps: ['base'] }),
    role('base'),
    role('tpl', { aggregateTo: ['viewer', 'missing-target'] }),
    role('admin', { deps: ['editor'] }),
    role('other', { deps: ['unrelated'] }),
  ]);

  it('walks dependency and aggregation edges backwards, itself included', () => {
    expect(rolesAffectedBy(graph, 'base')).toEqual(new Set(['base', 'viewer', 'editor', 'admin']));
    expect(rolesAffectedBy(graph, 'tpl')).toEqual(new Set(['tpl', 'viewer', 'editor', 'admin']));
    expect(rolesAffectedBy(graph, 'admin')).toEqual(new Set(['admin']));
  });

  it('finds dependents of a deleted role', () => {
    expect(rolesAffectedBy(graph, 'unrelated')).toEqual(new Set(['unrelated', 'other']));
  });

  it('follows replaced and removed roles', () => {
    const g = new SimpleRoleGraph([role('t', { aggregateTo: ['x'] }), role('x')]);
    expect([...g.aggregatedInto('x')]).toEqual(['t']);
    g.set(role('t', { aggregateTo: ['y'] }));
    expect([...g.aggregatedInto('x')]).toEqual([]);
    g.remove('t');
    expect([...g.aggregatedInto('y')]).toEqual([]);
    expect(g.role('t')).toBeUndefined();
  });
});
