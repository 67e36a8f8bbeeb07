import type { ResourceRef } from '../../pkg/client';

/** Where Users are served: `/api/v1alpha1/users`. */
export const USERS: ResourceRef = { group: '', version: 'v1alpha1', plural: 'users', kind: 'User' };
/** Every personal access token, for administrators: `/api/v1alpha1/personalaccesstokens`. */
export const TOKENS: ResourceRef = {
  group: '',
  version: 'v1alpha1',
  plural: 'personalaccesstokens',
  kind: 'PersonalAccessToken',
};
/** Where RoleBindings are served: `/api/v1alpha1/rolebindings`. */
export const ROLE_BINDINGS: ResourceRef = {
  group: '',
  version: 'v1alpha1',
  plural: 'rolebindings',
  kind: 'RoleBinding',
};

/** The password subresource of a user: its DELETE removes the password of a user being deleted. */
export const passwordPath = (user: string): string => `/api/v1alpha1/users/${encodeURIComponent(user)}/password`;
