import { describe, expect, it } from 'vitest';
import { displayName, groupByModule, includedBy, NO_MODULE, type Role } from './roles';

const role = (
  name: string,
  extra: { module?: string; display?: string; deps?: string[]; hidden?: boolean } = {},
): Role => ({
  metadata: {
    name,
    labels: extra.hidden ? { 'svc.run/hidden': 'true' } : {},
    annotations: {
      ...(extra.module ? { 'rbac.authorization.svc.run/module': extra.module } : {}),
      ...(extra.display ? { 'rbac.authorization.svc.run/display-name': extra.display } : {}),
      ...(extra.deps ? { 'rbac.authorization.svc.run/dependencies': JSON.stringify(extra.deps) } : {}),
    },
  },
});

const roles = [
  role('post-author', { module: 'Posts', display: 'Author', deps: ['post-contributor'] }),
  role('post-contributor', { module: 'Posts', display: 'Contributor' }),
  role('anonymous', { hidden: true }),
  role('guest', { display: 'Guest', deps: ['anonymous', 'authenticated'] }),
  role('people-view', { module: 'People', display: 'View people' }),
];

describe('groupByModule', () => {
  it('groups by module in name order, Other last, hidden roles left out, roles by display name', () => {
    const groups = groupByModule(roles);
    expect(groups.map((g) => g.module)).toEqual(['People', 'Posts', NO_MODULE]);
    expect(groups[1].roles.map(displayName)).toEqual(['Author', 'Contributor']);
    expect(groups.flatMap((g) => g.roles).map((r) => r.metadata.name)).not.toContain('anonymous');
  });

  it('names a role without a display name by its name', () => {
    expect(displayName(role('plain'))).toBe('plain');
  });
});

describe('includedBy', () => {
  it('names each role a chosen one includes, transitively, and through which', () => {
    const chain = [...roles, role('a', { deps: ['b'] }), role('b', { deps: ['c', 'a'] }), role('c')];
    const included = includedBy(['a'], chain);
    expect([...included.entries()]).toEqual([
      ['b', 'a'],
      ['c', 'a'],
    ]);
  });

  it('leaves out the roles that are chosen themselves', () => {
    expect(includedBy(['post-author', 'post-contributor'], roles).size).toBe(0);
    expect(includedBy(['post-author'], roles).get('post-contributor')).toBe('post-author');
  });

  it('reads a malformed dependencies annotation as none', () => {
    const broken: Role = {
      metadata: { name: 'x', annotations: { 'rbac.authorization.svc.run/dependencies': 'nope' } },
    };
    expect(includedBy(['x'], [broken]).size).toBe(0);
  });
});
