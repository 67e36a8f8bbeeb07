import type { IncomingMessage } from 'node:http';
import type { Authenticator } from '../authenticator';
import { pluginUserName, type PluginIdentities } from '../plugin-identities';
import { LOGGED_IN_GROUPS, type UserInfo } from '../user';
import { bearerToken } from './bearer';

/**
 * A plugin's `ctx.client` token names its identity `system:plugin:<name>`; any
 * other request is left to the next authenticator of the union.
 */
export class PluginTokenAuthenticator implements Authenticator {
  constructor(private readonly identities: PluginIdentities) {}

  async authenticate(req: IncomingMessage): Promise<UserInfo | undefined> {
    const token = bearerToken(req);
    const plugin = token ? this.identities.pluginOfToken(token) : undefined;
    return plugin === undefined ? undefined : { name: pluginUserName(plugin), groups: [...LOGGED_IN_GROUPS] };
  }
}
