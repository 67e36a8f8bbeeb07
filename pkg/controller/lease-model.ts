import type { ApiObject } from '../api/object';
import type { ResourceRef } from '../client/resource';

/** The group of coordination kinds (Kubernetes' coordination.k8s.io); the registry serves `Lease` in it. */
export const COORDINATION_GROUP = 'coordination.svc.run';

/**
 * A Lease's spec, as Kubernetes' coordination/v1 Lease: who holds it, for how
 * long after its last renewal, and how often it changed hands.
 */
export interface LeaseSpec {
  /** The holder's identity; empty when released. */
  holderIdentity?: string;
  /** Others may take the lease this long after they last saw it change. */
  leaseDurationSeconds?: number;
  /** RFC 3339: when the current holder acquired it. */
  acquireTime?: string;
  /** RFC 3339: when the current holder last renewed it. */
  renewTime?: string;
  /** How many times the lease changed hands. */
  leaseTransitions?: number;
}

/** A `Lease` object (`coordination.svc.run/v1alpha1`), the lock of leader election. */
export interface Lease extends ApiObject {
  spec?: LeaseSpec;
}

/** Where Leases are served: `/apis/coordination.svc.run/v1alpha1/leases`. */
export const LEASES: ResourceRef = { group: COORDINATION_GROUP, version: 'v1alpha1', plural: 'leases', kind: 'Lease' };
