import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { alwaysAllow, type Authorizer } from '../../auth/authorizer';
import type { Authenticator } from '../../auth/authenticator';
import { BasicAuthenticator } from '../../auth/authn/basic';
import { BearerAuthenticator } from '../../auth/authn/bearer';
import { DEFAULT_LOGIN_LIMITS, LoginThrottle, type LoginThrottleLimits } from '../../auth/authn/login-throttle';
import type { PasswordHashOptions } from '../../auth/password';
import { PasswordVerifier } from '../../auth/password-verifier';
import { RbacAuthorizer, type BoundCondition } from '../../auth/rbac';
import { newToken, tokenHash } from '../../auth/tokens';
import { isAnonymous, LOGGED_IN_GROUPS, type UserInfo } from '../../auth/user';
import type { Storage } from '../../storage/interface';
import type { SchemeManager } from '../../registry/scheme';
import type { ResourceStore } from '../../registry/resource-store';
import { bootstrapSecurity } from '../../registry/security/bootstrap';
import { CredentialStore, tokenCredentialName } from '../../registry/security/credentials';
import { escalationGuard, type EscalationGuard } from '../../registry/security/escalation';
import { ROLE_BINDING_KIND, roleBindingHooks } from '../../registry/security/role-binding-kind';
import { ROLE_KIND, roleHooks } from '../../registry/security/role-kind';
import { servedModelIndexes } from '../../registry/security/rule-conditions';
import { SecurityCache } from '../../registry/security/security-cache';
import { LastSuperAdminGuard } from '../../registry/security/last-super-admin';
import { recoverSuperAdmin } from '../../registry/security/super-admin-recovery';
import { chainHooks } from '../../registry/chain-hooks';
import { TOKEN_KIND } from '../../registry/security/token-kind';
import { USER_KIND, userHooks } from '../../registry/security/user-kind';
import { ensureUserFinalizers, withUserFinalizer } from '../../registry/security/user-finalizer';
import { tidyCredentials } from '../../registry/security/credential-upkeep';
import { refusingUsersBeingDeleted } from '../../registry/security/binding-subjects-guard';
import type { Logger } from '../../util/log';
import type { RequestInfo } from '../request-info';
import type { RouteTable } from '../routes';
import { registerSecurityRoutes } from './index';
import type { ConditionalObjects } from './conditional-review';
import type { PluginExtensions } from './deps';
import { denialDetails } from './denial-details';
import { isNotFound, type StatusDetails } from '../../api/errors';
import { writeAdminPasswordFile } from './admin-password-file';
import { warnAdminPasswordIgnored } from './admin-password-ignored';

/** The controller-manager's user name (docs/security.md). */
export const CONTROLLER_MANAGER_USER = 'system:controller-manager';

/** How the apiserver authenticates and authorises (flags of `svc-apiserver`). */
export interface SecurityConfig {
  authorizationMode: 'AlwaysAllow' | 'RBAC';
  /** The first start's `admin` password; random and printed once when absent. */
  adminPassword?: string;
  /**
   * Where the random first password is written (mode 0600, its path logged) instead of printed on stderr:
   * for an apiserver whose output is not a terminal. Absent: printed.
   */
  adminPasswordOutFile?: string;
  /** The controller-manager's token: read from this file, or made and written there (0600). */
  controllerManagerTokenFile?: string;
  loginLimits?: Partial<LoginThrottleLimits>;
  passwordHash?: PasswordHashOptions;
}

/** What the server is wired with once security is set up. */
export interface Security {
  authenticators: Authenticator[];
  authorizer: Authorizer;
  watchableNames?: (user: UserInfo, info: RequestInfo) => 'all' | Set<string>;
  /** RBAC only: the conditions of the conditional rules that would allow a request (see the server's deps). */
  conditions?: (user: UserInfo, info: RequestInfo) => BoundCondition[];
  accessChanges?: (listener: () => void) => () => void;
  /** A 403's nearest miss (RBAC only). */
  denialDetails?: (user: UserInfo, info: RequestInfo) => Pick<StatusDetails, 'trace' | 'templates'>;
  cache: SecurityCache;
  /** Where the plugin host makes its plugins' `extensions/` objects known (impact reviews of a Plugin). */
  pluginExtensions: PluginExtensions;
  stop(): void;
}

/**
 * Serves the security kinds (User, Role, RoleBinding, PersonalAccessToken),
 * loads the watch-fed cache, applies the built-in roles and the first admin,
 * and adds the security endpoints to `routes`. The authoriser is RBAC, or
 * AlwaysAllow (every other piece stays: users still log in).
 */
/** The guard of `--authorization-mode=AlwaysAllow`: every write is allowed. */
const allow = (): void => undefined;

export async function setupSecurity(
  storage: Storage,
  schemes: SchemeManager,
  routes: RouteTable,
  config: SecurityConfig,
  maxBodyBytes: number,
  log: Logger,
): Promise<Security> {
  const isRbac = config.authorizationMode === 'RBAC';
  const cache = new SecurityCache(storage, log);
  const rbac = new RbacAuthorizer(cache);
  const guard: EscalationGuard = isRbac
    ? escalationGuard(rbac, cache, cache.roleGraph)
    : { checkRules: allow, checkUiPermissions: allow, checkRoleWrite: allow, checkRole: allow };
  // super-role's status is the aggregation controller's alone: the controller-manager's identity, or, under
  // AlwaysAllow, where a controller-manager may run without a token, the anonymous visitor.
  const writesSuperRoleStatus = (user: UserInfo) =>
    user.name === CONTROLLER_MANAGER_USER || (!isRbac && isAnonymous(user));
  const seen = (mirror: SecurityCache['users']) => ({ afterWrite: cache.seenHook(mirror) });
  const superAdmins = new LastSuperAdminGuard(cache);
  const users = (
    await schemes.register(USER_KIND, undefined, {
      platform: true,
      hooks: chainHooks(withUserFinalizer(userHooks), superAdmins.userHooks(), seen(cache.users)),
    })
  ).store;
  const roles = (
    await schemes.register(ROLE_KIND, undefined, {
      platform: true,
      hooks: { ...roleHooks(guard, writesSuperRoleStatus, servedModelIndexes(schemes)), ...seen(cache.roles) },
    })
  ).store;
  const bindings = (
    await schemes.register(ROLE_BINDING_KIND, undefined, {
      platform: true,
      hooks: chainHooks(
        refusingUsersBeingDeleted(
          roleBindingHooks({ exists: async (name) => exists(roles, name) }, guard),
          (user) => cache.users.get(user)?.metadata.deletionTimestamp !== undefined,
        ),
        superAdmins.bindingHooks(),
        seen(cache.bindings),
      ),
    })
  ).store;
  const credentials = new CredentialStore(storage);
  const tokenSeen = cache.seenHook(cache.tokens);
  const tokens = (
    await schemes.register(TOKEN_KIND, undefined, {
      platform: true,
      hooks: {
        // A revoked token's hash goes at once, whichever API revoked it.
        afterWrite: async (token) => {
          if (token.metadata.deletionTimestamp)
            await cache.credentialsSeen(await credentials.remove(tokenCredentialName(token.metadata.name!)));
          await tokenSeen(token);
        },
      },
    })
  ).store;
  await credentials.define();
  await cache.start();
  const announce = config.adminPasswordOutFile
    ? writeAdminPasswordFile(config.adminPasswordOutFile, log.child({ part: 'bootstrap' }))
    : undefined;
  const { adminPasswordSet } = await bootstrapSecurity(
    { users, roles, bindings, credentials },
    { adminPassword: config.adminPassword, passwordHash: config.passwordHash, announce },
    log.child({ part: 'bootstrap' }),
  );
  // Users and credentials stored before deleting a user cleaned up after them (docs/security.md, "Deleting a user").
  await tidyCredentials(credentials, { users, tokens }, log.child({ part: 'bootstrap' }));
  await ensureUserFinalizers(users, log.child({ part: 'bootstrap' }));
  // A start that finds no enabled super administrator uses the admin password to restore one (or says why not).
  const recovering = superAdmins.enabledSuperAdmins().size === 0;
  if (config.adminPassword !== undefined && !adminPasswordSet && !recovering)
    warnAdminPasswordIgnored(log.child({ part: 'bootstrap' }));
  await recoverSuperAdmin(
    { users, roles, bindings, credentials },
    superAdmins,
    { adminPassword: config.adminPassword, passwordHash: config.passwordHash },
    log.child({ part: 'bootstrap' }),
  );
  if (config.controllerManagerTokenFile) {
    cache.addStaticToken(tokenHash(controllerManagerToken(config.controllerManagerTokenFile, log)), {
      name: CONTROLLER_MANAGER_USER,
      groups: [...LOGGED_IN_GROUPS],
    });
  }
  const throttle = new LoginThrottle({ ...DEFAULT_LOGIN_LIMITS, ...config.loginLimits });
  const basic = new BasicAuthenticator(cache, throttle, new PasswordVerifier({ hashOptions: config.passwordHash }));
  const authorizer = isRbac ? rbac : alwaysAllow;
  const pluginExtensions: PluginExtensions = {};
  const index = registerSecurityRoutes(routes, {
    cache,
    credentials,
    authorizer: rbac,
    requestAuthorizer: authorizer,
    enforcesRbac: isRbac,
    superAdmins,
    basic,
    throttle,
    users,
    tokens,
    bindings,
    maxBodyBytes,
    passwordHash: config.passwordHash,
    conditionalObjects: servedObjects(schemes),
    pluginExtensions,
  });
  return {
    authenticators: [new BearerAuthenticator(cache, throttle), basic],
    authorizer,
    ...(isRbac ? rbacRequestChecks(rbac, cache, index) : {}),
    accessChanges: (listener) => {
      const unsubscribe = [cache.roles.subscribe(listener), cache.bindings.subscribe(listener)];
      return () => unsubscribe.forEach((u) => u());
    },
    cache,
    pluginExtensions,
    stop: () => cache.stop(),
  };
}

/** What the server asks RBAC besides the decision: names a watch may see, conditions, a 403's nearest miss. */
function rbacRequestChecks(
  rbac: RbacAuthorizer,
  cache: SecurityCache,
  index: Parameters<typeof denialDetails>[1],
): Pick<Security, 'watchableNames' | 'conditions' | 'denialDetails'> {
  return {
    watchableNames: (user, info) => rbac.namesAllowed(user, info),
    conditions: (user, info) => rbac.conditionsFor(user, info),
    denialDetails: denialDetails(cache, index),
  };
}

/** The served models and their stored objects, for access reviews that decide conditional rules. */
function servedObjects(schemes: SchemeManager): ConditionalObjects {
  return {
    model: (group, resource) => schemes.served(group, resource)?.model,
    read: async (group, resource, name) => {
      const served = schemes.served(group, resource);
      if (!served) return undefined;
      try {
        return { object: await served.store.get(name), model: served.model };
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
  };
}

/** The token in `file`, or a new one written there (mode 0600) when the file does not exist. */
function controllerManagerToken(file: string, log: Logger): string {
  if (existsSync(file)) {
    const token = readFileSync(file, 'utf8').trim();
    if (!token) throw new Error(`the controller-manager token file ${file} is empty`);
    return token;
  }
  const token = newToken();
  writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  log.info({ file }, 'controller-manager token written');
  return token;
}

async function exists(store: ResourceStore, name: string): Promise<boolean> {
  try {
    await store.get(name);
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}
