/** The API paths the console calls. */
export const MY_USER = '/apis/api.console.svc.run/v1alpha1/users/-';
export const MY_PERMISSIONS = '/apis/api.console.svc.run/v1alpha1/users/-/permissions';
export const userPermissions = (name: string) =>
  `/apis/api.console.svc.run/v1alpha1/users/${encodeURIComponent(name)}/permissions`;
export const MY_TOKENS = '/apis/uc.api.security.svc.run/v1alpha1/personalaccesstokens';
export const USERS = '/api/v1alpha1/users';
export const ROLES = '/api/v1alpha1/roles';
export const ROLE_BINDINGS = '/api/v1alpha1/rolebindings';
export const ACCESS_REVIEWS = '/apis/authorization.svc.run/v1alpha1/accessreviews';
/** Kubernetes' "may I?": every logged-in user may ask about themselves. */
export const SELF_ACCESS_REVIEWS = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
export const PLUGINS = '/apis/plugin.svc.run/v1alpha1/plugins';
/** Posts (the content module): the author's own in the user centre, every post in the console API. */
export const MY_POSTS = '/apis/uc.api.content.svc.run/v1alpha1/posts';
export const ALL_POSTS = '/apis/content.svc.run/v1alpha1/posts';
/** Where the secret of a new personal access token is, in the response that creates it only. */
export const TOKEN_ANNOTATION = 'security.svc.run/access-token';

/** A model's collection path: `/api/v1alpha1/<plural>` for the core group, `/apis/<group>/<version>/<plural>` else. */
export function collectionPath(group: string, version: string, plural: string): string {
  return group ? `/apis/${group}/${version}/${plural}` : `/api/${version}/${plural}`;
}

export const objectPath = (group: string, version: string, plural: string, name: string) =>
  `${collectionPath(group, version, plural)}/${encodeURIComponent(name)}`;

/** The plugins with console pages, for every logged-in user. */
export const CONSOLE_PLUGINS = '/apis/api.console.svc.run/v1alpha1/consoleplugins';

/** Models defined as objects (their schema, indexes and printer columns); platform kinds are not among them. */
export const MODELS = '/apis/apiextensions.svc.run/v1alpha1/models';

/** Access insight: who can, what a user can, and what a role change would do (each a POST answered with `status`). */
export const WHO_CAN = '/apis/authorization.svc.run/v1alpha1/resourceaccessreviews';
export const WHAT_CAN = '/apis/authorization.svc.run/v1alpha1/subjectrulesreviews';
export const IMPACT = '/apis/authorization.svc.run/v1alpha1/accessimpactreviews';
/** The audit records, newest first (`?user=&verb=&resource=&decision=&since=&limit=&continue=`, `?watch=true`). */
export const AUDIT_EVENTS = '/apis/audit.svc.run/v1alpha1/events';
