import type { IncomingMessage } from 'node:http';
import { forbidden } from '../../api/errors';
import type { Authenticator } from '../authenticator';
import { PLUGIN_USER_PREFIX, type PluginIdentities } from '../plugin-identities';
import { LOGGED_IN_GROUPS, type UserInfo } from '../user';

/** The header a caller names the plugin it acts for with, as in Kubernetes' impersonation. */
export const IMPERSONATE_USER_HEADER = 'impersonate-user';

/**
 * Lets the `plugins` controller apply a plugin's extension objects as the plugin
 * itself: a request authenticated by `inner` whose `Impersonate-User` header
 * names `system:plugin:<name>` acts as that plugin's identity, when the caller
 * may act for plugins (`mayActForPlugins`: the controller-manager) and the plugin
 * is running. Anyone else asking to, or naming a plugin that is not running,
 * gets a 403. An `Impersonate-User` naming anyone but a plugin is not read.
 */
export class PluginImpersonation implements Authenticator {
  constructor(
    private readonly inner: Authenticator,
    private readonly identities: PluginIdentities,
    private readonly mayActForPlugins: (user: UserInfo | undefined) => boolean,
  ) {}

  async authenticate(req: IncomingMessage): Promise<UserInfo | undefined> {
    const user = await this.inner.authenticate(req);
    const header = req.headers[IMPERSONATE_USER_HEADER];
    const wanted = Array.isArray(header) ? header.join(',') : header;
    if (wanted === undefined || !wanted.startsWith(PLUGIN_USER_PREFIX)) return user;
    const who = user?.name ?? 'anonymous';
    if (!this.mayActForPlugins(user)) {
      throw forbidden(`users "${wanted}" is forbidden: User "${who}" cannot impersonate plugin identities`, {
        resource: 'users',
        name: wanted,
      });
    }
    const plugin = wanted.slice(PLUGIN_USER_PREFIX.length);
    if (!this.identities.isRunning(plugin)) {
      throw forbidden(`users "${wanted}" is forbidden: plugin "${plugin}" is not running`, {
        resource: 'users',
        name: wanted,
      });
    }
    return { name: wanted, groups: [...LOGGED_IN_GROUPS] };
  }
}
