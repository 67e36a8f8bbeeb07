import { hash, randomBytes } from 'node:crypto';

/** The prefix of every token svc mints, so that secret scanners can recognise them. */
export const TOKEN_PREFIX = 'svc_';

/** A new bearer token: `svc_` and 256 random bits, base64url. */
export function newToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * What is stored of a token: its SHA-256, hex. Tokens carry 256 random bits,
 * so a fast hash is enough (no dictionary to guess from), and looking a token
 * up by its hash compares no secret byte by byte. Every bearer request pays
 * for it: the one-shot `hash` costs about a third of `createHash`'s Hash object.
 */
export function tokenHash(token: string): string {
  return hash('sha256', token, 'hex');
}
