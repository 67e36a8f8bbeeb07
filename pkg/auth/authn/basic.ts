import type { IncomingMessage } from 'node:http';
import { createHash } from 'node:crypto';
import { unauthorized } from '../../api/errors';
import type { Authenticator } from '../authenticator';
import type { PasswordVerifier } from '../password-verifier';
import { LOGGED_IN_GROUPS, type UserInfo } from '../user';
import type { LoginThrottle } from './login-throttle';
import type { CredentialSource } from './sources';

/** How long a verified password is remembered, so that a Basic client pays argon2 once, not per request. */
const VERIFIED_TTL_MS = 60_000;
const MAX_VERIFIED = 10_000;

/**
 * `Authorization: Basic` (docs/security.md). A locked user or address (see
 * LoginThrottle) is refused 429 before any password is checked. A verified
 * (user, password, stored hash) is remembered for a minute under a SHA-256 of
 * the three, so a password change or a disabled user takes effect at once;
 * argon2 runs only on a miss, through the bounded PasswordVerifier.
 */
export class BasicAuthenticator implements Authenticator {
  private readonly verified = new Map<string, number>();

  constructor(
    private readonly source: CredentialSource,
    private readonly throttle: LoginThrottle,
    private readonly verifier: PasswordVerifier,
    private readonly now = Date.now,
  ) {}

  async authenticate(req: IncomingMessage): Promise<UserInfo | undefined> {
    const header = req.headers.authorization;
    if (!header || !/^basic /i.test(header)) return undefined;
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon <= 0) throw unauthorized('malformed Basic credentials');
    const name = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    const address = req.socket.remoteAddress;
    if (await this.check(name, password, address)) return { name, groups: [...LOGGED_IN_GROUPS] };
    throw this.throttle.fail(name, address, unauthorized('invalid username or password'));
  }

  /**
   * Whether `password` is `name`'s current password and the user may log in.
   * Throws 429 without checking when `name` or `address` is locked, 503 when
   * too many checks wait. Counts no failure: the caller does.
   */
  async check(name: string, password: string, address: string | undefined): Promise<boolean> {
    const refused = this.throttle.locked(name, address);
    if (refused) throw refused;
    const account = this.source.account(name);
    const hash = account && !account.disabled && account.passwordHash ? account.passwordHash : undefined;
    if (hash === undefined) return this.verifier.verify(name, undefined, password);
    const key = createHash('sha256').update(`${name}\0${password}\0${hash}`).digest('base64');
    const until = this.verified.get(key);
    if (until !== undefined && until > this.now()) return true;
    if (!(await this.verifier.verify(name, hash, password))) return false;
    if (this.verified.size >= MAX_VERIFIED) this.verified.clear();
    this.verified.set(key, this.now() + VERIFIED_TTL_MS);
    return true;
  }
}
