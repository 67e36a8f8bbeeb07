import type { ResourceRef } from '../../pkg/client';

/** Where Roles are served: `/api/v1alpha1/roles` (the core group). */
export const ROLES: ResourceRef = { group: '', version: 'v1alpha1', plural: 'roles', kind: 'Role' };

/** Model objects: one being written, served or removed may make a role's conditions usable or not. */
export const MODELS: ResourceRef = {
  group: 'apiextensions.svc.run',
  version: 'v1alpha1',
  plural: 'models',
  kind: 'Model',
};
