import { rolesAffectedBy, SimpleRoleGraph, type Role } from '../../pkg/auth/rbac';
import type { DeepReadonly, ReadonlyCache } from '../../pkg/controller';

/**
 * The role graph the aggregation controller computes with, mirrored from the
 * informer's cache of every Role, and which roles each role's status says it
 * drew from. It is fed one role event at a time (`keysFor`), synchronously
 * with the cache, so the graph always shows what the cache holds.
 * @example
 * const index = new RoleIndex(manager.cacheFor<Role>(ROLES));
 * controller(name, manager).for(ROLES).watches<Role>(ROLES, (role) => index.keysFor(role.metadata.name!));
 */
export class RoleIndex {
  /** The roles as the cache holds them, with their edges indexed both ways. */
  readonly graph = new SimpleRoleGraph();
  /** contributor → the roles whose `status.contributors` lists it */
  private readonly listedBy = new Map<string, Set<string>>();
  /** role → the contributors its `status` lists */
  private readonly listing = new Map<string, string[]>();

  constructor(private readonly roles: ReadonlyCache<Role>) {}

  /**
   * Takes in the change of role `name` (its state now is the cache's: absent
   * when it was removed) and answers every role whose effective rules may
   * have changed with it: itself, the roles that included it before the
   * change (the old graph, and the roles whose status lists it) and those
   * that include it after.
   */
  keysFor(name: string): string[] {
    const affected = rolesAffectedBy(this.graph, name);
    for (const includer of this.listedBy.get(name) ?? []) affected.add(includer);
    const current = this.roles.get(name);
    if (current) this.set(current);
    else this.remove(name);
    for (const includer of rolesAffectedBy(this.graph, name)) affected.add(includer);
    return [...affected];
  }

  private set(role: DeepReadonly<Role>): void {
    const name = role.metadata.name!;
    this.unlist(name);
    // The graph only reads the roles it holds; the cast lets it hold the cache's frozen objects.
    this.graph.set(role as Role);
    const contributors = (role.status?.contributors ?? []).map((c) => c.name);
    this.listing.set(name, contributors);
    for (const contributor of contributors) {
      let includers = this.listedBy.get(contributor);
      if (!includers) this.listedBy.set(contributor, (includers = new Set()));
      includers.add(name);
    }
  }

  private remove(name: string): void {
    this.unlist(name);
    this.graph.remove(name);
  }

  private unlist(name: string): void {
    for (const contributor of this.listing.get(name) ?? []) {
      const includers = this.listedBy.get(contributor);
      includers?.delete(name);
      if (includers?.size === 0) this.listedBy.delete(contributor);
    }
    this.listing.delete(name);
  }
}
