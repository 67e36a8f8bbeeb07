import type { IncomingMessage } from 'node:http';
import type { Authenticator } from '../authenticator';
import type { PluginIdentities } from '../plugin-identities';
import type { UserInfo } from '../user';
import { bearerToken } from './bearer';

/**
 * A plugin's `ctx.client` token names its identity `system:plugin:<name>`; any
 * other request is left to the next authenticator of the union.
 */
export class PluginTokenAuthenticator implements Authenticator {
  constructor(private readonly identities: PluginIdentities) {}

  async authenticate(req: IncomingMessage): Promise<UserInfo | undefined> {
    const token = bearerToken(req);
    return token ? this.identities.userOfToken(token) : undefined;
  }
}
