import type { ResourceRef } from '../../pkg/client';

/** Where Roles are served: `/api/v1alpha1/roles` (the core group). */
export const ROLES: ResourceRef = { group: '', version: 'v1alpha1', plural: 'roles', kind: 'Role' };
