/** Who a request comes from, e.g. `{name: 'admin', groups: ['authenticated', 'anonymous']}`. */
export interface UserInfo {
  name: string;
  uid?: string;
  /** Roles every request of this user holds besides its bindings: `authenticated`, `anonymous`. */
  groups: string[];
  /** A role-limited token: only these of the user's bound roles count. */
  roleLimit?: string[];
  /** The personal access token the request logged in with (its object's name), for the audit record. */
  tokenName?: string;
  /**
   * Set by the apiserver, never from a request, on the calls a plugin's route handler makes for the user who called
   * the route (`req.client`): the plugin's identity and the route request's id, for the audit record and the log.
   */
  via?: CallVia;
}

/** Whose code made a call for a user, and in answer to which of their requests. */
export interface CallVia {
  /** `system:plugin:<name>`. */
  plugin: string;
  requestId: string;
}

/** The visitor without credentials (docs/security.md). */
export const ANONYMOUS: UserInfo = Object.freeze({ name: 'anonymous', groups: ['anonymous'] }) as UserInfo;

/** The roles every logged-in user holds besides its bindings (docs/security.md). */
export const LOGGED_IN_GROUPS: readonly string[] = Object.freeze(['authenticated', 'anonymous']);

/** Whether the request comes from the visitor without credentials. */
export const isAnonymous = (user: UserInfo): boolean => user.name === ANONYMOUS.name && user.groups.length === 1;
