/**
 * The verbs of resource requests, as Kubernetes names them: what a model serves, what discovery lists and what a
 * role's rule may grant (`*` in a rule stands for all of them).
 */
export const RESOURCE_VERBS = [
  'get',
  'list',
  'watch',
  'create',
  'update',
  'patch',
  'delete',
  'deletecollection',
] as const;

/** One of the resource verbs, e.g. `deletecollection`. */
export type ResourceVerb = (typeof RESOURCE_VERBS)[number];
