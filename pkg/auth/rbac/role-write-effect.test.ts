import { testRole } from '../../../test/support/roles';
import { SimpleRoleGraph } from './effective';
import { RoleGraphWithChange, roleWriteEffect } from './role-write-effect';
import type { PolicyRule, Role } from './types';

const get = (resource: string): PolicyRule => ({ verbs: ['get'], apiGroups: ['g'], resources: [resource] });

const role = (name: string, spec: { rules?: PolicyRule[]; deps?: string[]; to?: string[]; ui?: string[] } = {}): Role =>
  testRole(name, { rules: spec.rules, dependencies: spec.deps, aggregateTo: spec.to, uiPermissions: spec.ui });

const graph = () =>
  new SimpleRoleGraph([
    role('secret', { rules: [get('secret')] }),
    role('base', { rules: [get('base')] }),
    role('team', { rules: [get('team')], deps: ['base'] }),
    role('public', { rules: [get('public')] }),
    role('tpl', { rules: [get('base')], to: ['public'] }),
  ]);

describe('roleWriteEffect', () => {
  it('names the written role with what it would grant through a new dependency', () => {
    const effect = roleWriteEffect(graph(), role('base', { rules: [get('base')], deps: ['secret'] }));
    expect(effect.changed).toEqual([
      { name: 'base', rules: [get('base'), get('secret')], uiPermissions: [] },
      { name: 'team', rules: [get('base'), get('secret'), get('team')], uiPermissions: [] },
    ]);
    expect(effect.addedAggregationTargets).toEqual([]);
  });

  it('names the target of a new aggregation label, and the label as added', () => {
    const effect = roleWriteEffect(graph(), role('new', { rules: [get('x')], to: ['public', 'ghost'] }));
    expect(effect.changed.map((c) => c.name)).toEqual(['new', 'public']);
    expect(effect.changed[1].rules).toEqual([get('base'), get('public'), get('x')]);
    expect(effect.addedAggregationTargets).toEqual(['ghost', 'public']);
  });

  it('names the former target when a label is removed, and nothing for a write that changes no grant', () => {
    const removed = roleWriteEffect(graph(), role('tpl', { rules: [get('base')] }));
    expect(removed.changed.map((c) => c.name)).toEqual(['public']);
    expect(roleWriteEffect(graph(), role('tpl', { rules: [get('base')], to: ['public'] })).changed).toEqual([]);
  });

  it('counts UI permissions as grants', () => {
    const effect = roleWriteEffect(graph(), role('base', { rules: [get('base')], ui: ['ui:x'] }));
    expect(effect.changed.map((c) => [c.name, c.uiPermissions])).toEqual([
      ['base', ['ui:x']],
      ['team', ['ui:x']],
    ]);
  });
});

describe('RoleGraphWithChange', () => {
  it('shows the replacement and its edges, and hides a removed role', () => {
    const base = graph();
    const next = new RoleGraphWithChange(base, 'tpl', role('tpl', { deps: ['secret'] }));
    expect([...next.aggregatedInto('public')]).toEqual([]);
    expect([...next.dependentsOf('secret')]).toEqual(['tpl']);
    expect([...base.aggregatedInto('public')]).toEqual(['tpl']);
    const removed = new RoleGraphWithChange(base, 'base', undefined);
    expect(removed.role('base')).toBeUndefined();
    expect([...removed.dependentsOf('base')]).toEqual(['team']);
  });
});
