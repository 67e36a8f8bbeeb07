/**
 * The finalizer the apiserver keeps on every user that is not being deleted. The user-cleanup controller
 * removes it once the user's password, personal access tokens and role-binding entries are gone; only then may
 * the gc controller remove the user, and only then is the name free for a new user.
 */
export const USER_CLEANUP_FINALIZER = 'security.svc.run/user-cleanup';
