import type { UserInfo } from '../user';

/** A user as password login sees it. */
export interface LoginAccount {
  name: string;
  disabled: boolean;
  /** The argon2id PHC string; absent when no password was ever set (no password login then). */
  passwordHash?: string;
}

/** Where the authenticators find accounts and tokens: the apiserver's watch-fed security cache. */
export interface CredentialSource {
  account(name: string): LoginAccount | undefined;
  /**
   * The user a token (by its SHA-256) logs in as, or undefined when no token
   * has that hash or it is revoked, expired, or its user is disabled or gone.
   */
  tokenUser(hash: string): UserInfo | undefined;
  /** Why a token `tokenUser` refused is refused, so that its holder knows what to do (only asked after a refusal). */
  tokenRefusal(hash: string): TokenRefusal;
}

/**
 * Why a bearer token logs nobody in: `unknown` (never made here, mistyped, or from before a restart that forgot a
 * revocation), `revoked`, `expired`, or `user` (its user is disabled or deleted).
 */
export type TokenRefusal = 'unknown' | 'revoked' | 'expired' | 'user';
