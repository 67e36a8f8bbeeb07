import type { Model } from '../model';

/**
 * `Lease` (`coordination.svc.run/v1alpha1`), Kubernetes' coordination/v1
 * Lease: what controller-manager replicas elect their leader through
 * (pkg/controller/leader-election.ts); the apiserver serves it as a platform kind.
 */
export const LEASE_KIND: Model = {
  group: 'coordination.svc.run',
  version: 'v1alpha1',
  kind: 'Lease',
  singular: 'lease',
  plural: 'leases',
  schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          holderIdentity: { type: 'string', maxLength: 253 },
          // A number rather than Kubernetes' int32, so that tests can use sub-second leases.
          leaseDurationSeconds: { type: 'number', exclusiveMinimum: 0 },
          acquireTime: { type: 'string', format: 'date-time' },
          renewTime: { type: 'string', format: 'date-time' },
          leaseTransitions: { type: 'integer', minimum: 0 },
        },
      },
    },
  },
  printerColumns: [
    { name: 'Holder', type: 'string', jsonPath: '.spec.holderIdentity' },
    { name: 'Renewed', type: 'date', jsonPath: '.spec.renewTime' },
  ],
};
