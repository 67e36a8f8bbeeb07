import type { Role } from '../../pkg/auth/rbac';
import { deepFreeze, type DeepReadonly, type ReadonlyCache } from '../../pkg/controller';
import { getRule, testRole } from '../../test/support/roles';
import { RoleIndex } from './role-index';

/** A cache a test changes by hand, then tells the index about, as the informer does. */
class HandCache implements ReadonlyCache<Role> {
  private readonly roles = new Map<string, DeepReadonly<Role>>();
  get = (name: string) => this.roles.get(name);
  list = () => [...this.roles.values()];
  size = () => this.roles.size;
  put(role: Role): string {
    this.roles.set(role.metadata.name!, deepFreeze(structuredClone(role)));
    return role.metadata.name!;
  }
  remove(name: string): string {
    this.roles.delete(name);
    return name;
  }
}

function indexOver(...roles: Role[]): { cache: HandCache; index: RoleIndex } {
  const cache = new HandCache();
  const index = new RoleIndex(cache);
  for (const role of roles) index.keysFor(cache.put(role));
  return { cache, index };
}

const sorted = (keys: string[]) => [...keys].sort();

describe('RoleIndex.keysFor', () => {
  it('answers the role itself and every role that includes it, through dependencies and aggregation, transitively', () => {
    const { cache, index } = indexOver(
      testRole('top', { dependencies: ['mid'] }),
      testRole('mid'),
      testRole('leaf', { aggregateTo: ['mid'] }),
      testRole('unrelated'),
    );
    expect(sorted(index.keysFor(cache.put(testRole('leaf', { rules: [getRule('x')], aggregateTo: ['mid'] }))))).toEqual(
      ['leaf', 'mid', 'top'],
    );
    expect(index.keysFor(cache.put(testRole('unrelated', { rules: [getRule('y')] })))).toEqual(['unrelated']);
  });

  it('answers the roles that included it before the change: a label dropped, a role removed', () => {
    const { cache, index } = indexOver(
      testRole('target'),
      testRole('part', { aggregateTo: ['target'] }),
      testRole('dependent', { dependencies: ['part'] }),
    );
    expect(sorted(index.keysFor(cache.put(testRole('part'))))).toEqual(['dependent', 'part', 'target']);
    expect(sorted(index.keysFor(cache.remove('part')))).toEqual(['dependent', 'part']);
    expect(index.graph.role('part')).toBeUndefined();
  });

  it('answers the roles whose status lists it, even where the graph shows no edge', () => {
    const lister = testRole('lister');
    lister.status = {
      rules: [],
      uiPermissions: [],
      contributors: [{ name: 'old-part', via: 'aggregation', through: 'lister' }],
    };
    const { cache, index } = indexOver(lister, testRole('old-part'));
    expect(sorted(index.keysFor(cache.put(testRole('old-part', { rules: [getRule('z')] }))))).toEqual([
      'lister',
      'old-part',
    ]);

    lister.status = { rules: [], uiPermissions: [], contributors: [] };
    index.keysFor(cache.put(lister));
    expect(index.keysFor(cache.put(testRole('old-part')))).toEqual(['old-part']);
  });

  it('answers the dependents of a role that appears after them', () => {
    const { cache, index } = indexOver(testRole('waiting', { dependencies: ['late'] }));
    expect(sorted(index.keysFor(cache.put(testRole('late'))))).toEqual(['late', 'waiting']);
  });
});
