/** Who a request comes from, e.g. `{name: 'admin', groups: ['authenticated']}`. */
export interface UserInfo {
  name: string;
  uid?: string;
  /** Roles every request of this user holds besides its bindings: `authenticated`, `anonymous`. */
  groups: string[];
  /** A role-limited token: only these of the user's bound roles count. */
  roleLimit?: string[];
}

/** The visitor without credentials (API.md §8). */
export const ANONYMOUS: UserInfo = Object.freeze({ name: 'anonymous', groups: ['anonymous'] }) as UserInfo;
