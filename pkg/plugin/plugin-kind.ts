import type { Model } from '../registry/model';

/** The phases of a plugin, in `Plugin.status.phase`. */
export type PluginPhase = 'PENDING' | 'STARTING' | 'STARTED' | 'STOPPED' | 'FAILED';

/**
 * `Plugin` (`plugin.svc.run/v1alpha1`): one object per plugin folder, its
 * spec from `plugin.yaml`, its status written by the apiserver's plugin host.
 */
export const PLUGIN_KIND: Model = {
  group: 'plugin.svc.run',
  version: 'v1alpha1',
  kind: 'Plugin',
  singular: 'plugin',
  plural: 'plugins',
  schema: {
    type: 'object',
    required: ['spec'],
    properties: {
      spec: {
        type: 'object',
        required: ['version'],
        'x-kubernetes-preserve-unknown-fields': true,
        properties: {
          version: { type: 'string', minLength: 1 },
          requires: { type: 'string' },
          displayName: { type: 'string' },
          description: { type: 'string' },
          enabled: { type: 'boolean' },
          settings: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
      status: {
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
        properties: {
          phase: { type: 'string', enum: ['PENDING', 'STARTING', 'STARTED', 'STOPPED', 'FAILED'] },
          message: { type: 'string' },
          conditions: { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          extensions: { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      },
    },
  },
  printerColumns: [
    { name: 'Version', type: 'string', jsonPath: '.spec.version' },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Message', type: 'string', jsonPath: '.status.message' },
  ],
};
