import { StorageError } from '../errors';

/**
 * The memory backend's `continue` token: base64url of `{"offset": n}`, the
 * position of the next page in the query's order. Opaque to callers.
 *
 * @example decodeContinue(encodeContinue(40)) // 40
 */
export function encodeContinue(offset: number): string {
  return Buffer.from(JSON.stringify({ offset }), 'utf8').toString('base64url');
}

/** The offset a token resumes at. A token this backend did not make is Invalid. */
export function decodeContinue(token: string): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const offset = (parsed as { offset?: unknown } | undefined)?.offset;
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) {
    throw new StorageError('Invalid', 'the continue token is malformed; start the list again without it');
  }
  return offset;
}
