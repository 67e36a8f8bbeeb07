import type { Model } from '../model';

/**
 * `Lease` (`coordination.svc.run/v1alpha1`), Kubernetes' coordination/v1
 * Lease: what controller-manager replicas elect their leader through.
 * `spec: {holderIdentity, leaseDurationSeconds, acquireTime, renewTime, leaseTransitions}`.
 */
export const LEASE_KIND: Model = {
  group: 'coordination.svc.run', version: 'v1alpha1', kind: 'Lease', singular: 'lease', plural: 'leases',
  schema: {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          holderIdentity: { type: 'string' },
          leaseDurationSeconds: { type: 'integer', minimum: 1 },
          acquireTime: { type: 'string', format: 'date-time' },
          renewTime: { type: 'string', format: 'date-time' },
          leaseTransitions: { type: 'integer', minimum: 0 },
        },
      },
    },
  },
  printerColumns: [{ name: 'Holder', type: 'string', jsonPath: '.spec.holderIdentity' }],
};
