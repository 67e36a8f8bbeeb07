import { createHash } from 'node:crypto';
import { StorageError } from './errors';

/** Where a page ended: the last item's sort values (`false` where it had none) and its name. */
export interface ListPosition {
  s: (string | false)[];
  n: string;
}

/**
 * The continue token of every backend: base64url JSON of the position after
 * which the next page starts (a keyset), and a fingerprint of the query it
 * belongs to. A position rather than an offset, so that writes between pages
 * neither repeat nor skip the items that stay It also counts the items listed up to
 * the position, from which a page reports how many remain.
 */
interface TokenBody {
  v: 1;
  q: string;
  p: ListPosition;
  /** Items listed up to and including the position (absent in tokens made before it was added). */
  c?: number;
}

/** What a token holds: where the next page starts and how many items came before it. */
export interface ContinueState {
  position: ListPosition;
  listed: number;
}

/** A short digest of what a token's position depends on (sort keys and selectors). */
export function queryFingerprint(query: unknown): string {
  return createHash('sha256').update(JSON.stringify(query)).digest('base64url').slice(0, 16);
}

/** The token for a page that ended at `position`, the `listed`th item of the walk. */
export function encodeContinue(position: ListPosition, fingerprint: string, listed: number): string {
  const body: TokenBody = { v: 1, q: fingerprint, p: position, c: listed };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

/**
 * The position a token resumes after and the items listed before it. Invalid
 * when the token is not one of ours, or was made for a query with other sort keys or selectors.
 */
export function decodeContinue(token: string, fingerprint: string, sortKeys: number): ContinueState {
  const body = parseToken(token);
  if (body === undefined || !isWellFormed(body, sortKeys)) {
    throw new StorageError('Invalid', 'the continue token is malformed; start the list again without it');
  }
  if (body.q !== fingerprint) {
    throw new StorageError('Invalid', 'the continue token belongs to a list with other selectors or sort keys');
  }
  return { position: body.p, listed: body.c ?? 0 };
}

function parseToken(token: string): Partial<TokenBody> | undefined {
  try {
    const body = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown;
    return typeof body === 'object' && body !== null ? (body as Partial<TokenBody>) : undefined;
  } catch {
    return undefined;
  }
}

function isWellFormed(body: Partial<TokenBody>, sortKeys: number): body is TokenBody {
  return (
    body.v === 1 &&
    typeof body.q === 'string' &&
    isPosition(body.p, sortKeys) &&
    (body.c === undefined || (Number.isSafeInteger(body.c) && body.c >= 0))
  );
}

function isPosition(position: unknown, sortKeys: number): position is ListPosition {
  if (typeof position !== 'object' || position === null) return false;
  const { n, s } = position as Partial<ListPosition>;
  return (
    typeof n === 'string' &&
    Array.isArray(s) &&
    s.length === sortKeys &&
    s.every((v) => typeof v === 'string' || v === false)
  );
}
