import type { IncomingMessage } from 'node:http';
import { ANONYMOUS, type UserInfo } from './user';

/**
 * Finds who a request comes from. Resolves to the user, or to `undefined`
 * when the request carries no credentials it understands; throws a 401
 * StatusError for credentials that are present but wrong.
 */
export interface Authenticator {
  authenticate(req: IncomingMessage): Promise<UserInfo | undefined>;
}

/** Tries each authenticator in turn; the first to name a user wins; nobody → anonymous. */
export async function authenticateRequest(authenticators: Authenticator[], req: IncomingMessage): Promise<UserInfo> {
  for (const a of authenticators) {
    const user = await a.authenticate(req);
    if (user) return user;
  }
  return ANONYMOUS;
}
