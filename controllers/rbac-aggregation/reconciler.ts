import {
  computeEffective,
  conditionalResources,
  observedDefinitionOf,
  unusableConditions,
  type PolicyRule,
  type Role,
  type RoleGraph,
  type RoleStatus,
  type UnusableCondition,
} from '../../pkg/auth/rbac';
import type { ApiClient } from '../../pkg/client';
import {
  updateStatus,
  type DeepReadonly,
  type ReadonlyCache,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from '../../pkg/controller';
import { ROLES } from './roles';
import { ServedIndexes } from './served-indexes';

/** How often a role whose conditions grant nothing somewhere is looked at again (a model may be served meanwhile). */
export const UNUSABLE_RECHECK_MS = 10_000;

/**
 * The status a role's effective rules call for: its rules, UI permissions and
 * contributors over `graph` (canonical: sorted, de-duplicated), stamped with
 * the generation they were computed for, so that the apiserver enforces them
 * only while the role is unchanged since. Edges declared by a role that the
 * role-write check did not admit are left out and listed in `refused`, with
 * why: the controller materialises nothing the check would refuse.
 */
export function aggregatedStatus(graph: RoleGraph, role: DeepReadonly<Role>): RoleStatus {
  const { rules, uiPermissions, contributors, refused } = computeEffective(graph, role.metadata.name!);
  const status: RoleStatus = {
    observedGeneration: role.metadata.generation,
    observedDefinition: observedDefinitionOf(role as Role),
    rules,
    uiPermissions,
    contributors,
  };
  if (refused) status.refused = refused;
  return status;
}

/**
 * Materialises one role's effective rules into its `status` (through the
 * status subresource, conditionally on the cached `resourceVersion`), and only
 * when they differ from what the status shows: a converged role costs no
 * write, and the watch event of our own write ends in a no-op reconcile.
 * A role that is gone or marked for deletion needs nothing. Conditional
 * rules that grant nothing now (their model is not served, or lacks an index
 * the condition names) are listed in `status.unusableConditions`, and the
 * role is looked at again every UNUSABLE_RECHECK_MS until they are usable.
 * @example
 * new RoleAggregationReconciler(client, manager.cacheFor<Role>(ROLES), index.graph)
 */
export class RoleAggregationReconciler implements Reconciler {
  constructor(
    private readonly client: ApiClient,
    private readonly roles: ReadonlyCache<Role>,
    /** Every role the cache holds, as a graph: what effective rules are computed over. */
    private readonly graph: RoleGraph,
    private readonly served = new ServedIndexes(client),
  ) {}

  async reconcile({ name }: Request, { signal, log }: ReconcileContext): Promise<Result | void> {
    const role = this.roles.get(name);
    if (!role || role.metadata.deletionTimestamp) return;
    const status = aggregatedStatus(this.graph, role);
    const unusable = await this.unusable(status.rules, signal);
    if (unusable.length) status.unusableConditions = unusable;
    const { changed } = await updateStatus<Role>(this.client, ROLES, role, status, { signal });
    if (changed) {
      log.debug({ rules: status.rules.length, contributors: status.contributors.length }, 'effective rules written');
      if (status.refused)
        log.warn({ role: name, refused: status.refused }, 'edges of roles the role-write check did not admit left out');
      if (unusable.length)
        log.info({ role: name, unusable: unusable.map((u) => u.message) }, 'conditional rules that grant nothing');
    }
    return unusable.length ? { requeueAfterMs: UNUSABLE_RECHECK_MS } : undefined;
  }

  /** Conditional rules on a model not served, or on a field it does not index: they grant nothing. */
  private async unusable(rules: PolicyRule[], signal: AbortSignal): Promise<UnusableCondition[]> {
    const named = conditionalResources(rules);
    return named.length ? unusableConditions(rules, await this.served.lookup(named, signal)) : [];
  }
}
