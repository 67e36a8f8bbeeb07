import type { IncomingMessage } from 'node:http';
import { unauthorized } from '../../api/errors';
import type { Authenticator } from '../authenticator';
import { tokenHash } from '../tokens';
import type { UserInfo } from '../user';
import type { LoginThrottle } from './login-throttle';
import type { CredentialSource, TokenRefusal } from './sources';

/**
 * `Authorization: Bearer <token>` (docs/security.md): personal access tokens and the
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
    const token = bearerToken(req);
    if (token === undefined) return undefined;
    const user = token ? this.source.tokenUser(tokenHash(token)) : undefined;
    if (user) return user;
    const why = token ? this.source.tokenRefusal(tokenHash(token)) : 'unknown';
    throw this.throttle.fail(undefined, req.socket.remoteAddress, unauthorized(REFUSALS[why], 'Bearer realm="svc"'));
  }
}

/**
 * The 401 message for each reason: it says what happened to the token, so that its holder knows to get a new one.
 * Only a caller who holds the token learns whether it once worked, which tells them nothing they could use.
 */
export const REFUSALS: Record<TokenRefusal, string> = {
  unknown: 'invalid bearer token: this server knows no such token (mistyped, or made by another server)',
  revoked: 'invalid bearer token: the token was revoked',
  expired: 'invalid bearer token: the token has expired',
  user: "invalid bearer token: the token's user is disabled or deleted",
};

/** Kubernetes' way for browsers, which cannot set headers on a WebSocket: the token as a subprotocol. */
export const WEBSOCKET_TOKEN_PREFIX = 'base64url.bearer.authorization.k8s.io.';

/**
 * The bearer token of a request: `Authorization: Bearer <token>`, or, on a
 * WebSocket upgrade without that header, the subprotocol
 * `base64url.bearer.authorization.k8s.io.<base64url of the token>`.
 */
export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header) return /^bearer /i.test(header) ? header.slice(7).trim() : undefined;
  const protocols = req.headers['sec-websocket-protocol'];
  if (!protocols || req.headers.upgrade?.toLowerCase() !== 'websocket') return undefined;
  const entry = protocols
    .split(',')
    .map((p) => p.trim())
    .find((p) => p.startsWith(WEBSOCKET_TOKEN_PREFIX));
  return entry === undefined
    ? undefined
    : Buffer.from(entry.slice(WEBSOCKET_TOKEN_PREFIX.length), 'base64url').toString();
}
