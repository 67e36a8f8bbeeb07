import type { IncomingMessage } from 'node:http';
import type { Authenticator } from '../authenticator';
import type { UserInfo } from '../user';

/**
 * Several authenticators as one: each is asked in turn and the first to name a
 * user wins; one that throws (credentials present but wrong) ends the search.
 * Resolves to undefined when none understands the request.
 */
export function unionAuthenticator(authenticators: readonly Authenticator[]): Authenticator {
  return {
    authenticate: async (req: IncomingMessage): Promise<UserInfo | undefined> => {
      for (const authenticator of authenticators) {
        const user = await authenticator.authenticate(req);
        if (user) return user;
      }
      return undefined;
    },
  };
}
