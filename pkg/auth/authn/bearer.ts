import type { IncomingMessage } from 'node:http';
import { unauthorized } from '../../api/errors';
import type { Authenticator } from '../authenticator';
import { tokenHash } from '../tokens';
import type { UserInfo } from '../user';
import type { LoginThrottle } from './login-throttle';
import type { CredentialSource } from './sources';

/**
 * `Authorization: Bearer <token>` (API.md §8): personal access tokens and the
 * controller-manager's token, looked up by SHA-256 in memory — no storage
 * round trip, no password hash. Revocation, expiry and disabling take effect
 * as soon as the security cache sees them.
 */
export class BearerAuthenticator implements Authenticator {
  constructor(
    private readonly source: CredentialSource,
    private readonly throttle: LoginThrottle,
  ) {}

  async authenticate(req: IncomingMessage): Promise<UserInfo | undefined> {
    const header = req.headers.authorization;
    if (!header || !/^bearer /i.test(header)) return undefined;
    const token = header.slice(7).trim();
    const user = token ? this.source.tokenUser(tokenHash(token)) : undefined;
    if (user) return user;
    throw this.throttle.fail(
      undefined,
      req.socket.remoteAddress,
      unauthorized('invalid bearer token', 'Bearer realm="svc"'),
    );
  }
}
