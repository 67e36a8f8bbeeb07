import type { Authorizer } from './authorizer';
import { newToken, tokenHash } from './tokens';
import { LOGGED_IN_GROUPS, type UserInfo } from './user';

/** The prefix of every plugin's user name: plugin `people` acts as `system:plugin:people`. */
export const PLUGIN_USER_PREFIX = 'system:plugin:';

/** The user a plugin's `ctx.client` acts as. */
export const pluginUserName = (plugin: string): string => `${PLUGIN_USER_PREFIX}${plugin}`;

/**
 * Who plugins are when their code calls the apiserver (`ctx.client`, docs/plugins.md):
 * each start of a plugin gets a random bearer token, known only to this
 * process's memory and the plugin's worker, and revoked when the plugin stops.
 * The identity may do anything on the models the plugin itself serves (a
 * grant that lives and dies with the model); everything else is what the roles
 * bound to `system:plugin:<name>` allow, like any user. The authenticators that
 * read it are in `authn/plugin-token.ts` and `authn/plugin-impersonation.ts`.
 */
export class PluginIdentities {
  /** Token hash → plugin name. */
  private readonly tokens = new Map<string, string>();
  /** Plugin name → `group/plural` of the models it serves. */
  private readonly models = new Map<string, Set<string>>();

  /** A new token for the plugin's `ctx.client`; an earlier one of the same plugin stops working. */
  issue(plugin: string): string {
    this.revoke(plugin);
    const token = newToken();
    this.tokens.set(tokenHash(token), plugin);
    return token;
  }

  /** The plugin's token stops working and its models grant it nothing any more. */
  revoke(plugin: string): void {
    for (const [hash, owner] of this.tokens) if (owner === plugin) this.tokens.delete(hash);
    this.models.delete(plugin);
  }

  /** The plugin serves this model: its identity may do anything on it. */
  allowModel(plugin: string, group: string, plural: string): void {
    const models = this.models.get(plugin) ?? new Set<string>();
    models.add(`${group}/${plural}`);
    this.models.set(plugin, models);
  }

  /** The plugin a token was issued to, if it is still valid. */
  pluginOfToken(token: string): string | undefined {
    return this.tokens.size === 0 ? undefined : this.tokens.get(tokenHash(token));
  }

  /** The user a token makes its bearer, `system:plugin:<name>`, while it is valid. */
  userOfToken(token: string): UserInfo | undefined {
    return this.userOfHash(this.tokens.size === 0 ? undefined : tokenHash(token));
  }

  /**
   * `userOfToken` for one token, asked again and again (each in-process read of a plugin's `ctx.client`): its hash is
   * taken once, and each call looks it up, so a token revoked since answers undefined at once.
   */
  tokenUser(token: string): () => UserInfo | undefined {
    const hash = tokenHash(token);
    return () => this.userOfHash(hash);
  }

  private userOfHash(hash: string | undefined): UserInfo | undefined {
    const plugin = hash === undefined ? undefined : this.tokens.get(hash);
    return plugin === undefined ? undefined : { name: pluginUserName(plugin), groups: [...LOGGED_IN_GROUPS] };
  }

  /** Whether the plugin holds a valid token: it is running. */
  isRunning(plugin: string): boolean {
    for (const owner of this.tokens.values()) if (owner === plugin) return true;
    return false;
  }

  /** `next`, with every request of a plugin's identity on one of its own models allowed. */
  authorizer(next: Authorizer): Authorizer {
    return {
      authorize: async (attributes) => {
        const { user, info } = attributes;
        if (info.isResourceRequest && user.name.startsWith(PLUGIN_USER_PREFIX)) {
          const plugin = user.name.slice(PLUGIN_USER_PREFIX.length);
          if (this.models.get(plugin)?.has(`${info.apiGroup}/${info.resource}`)) {
            return { decision: 'Allow', reason: `plugin "${plugin}" serves ${info.resource}.${info.apiGroup}` };
          }
        }
        return next.authorize(attributes);
      },
    };
  }
}
