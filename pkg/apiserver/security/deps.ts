import { badRequest, methodNotAllowed } from '../../api/errors';
import type { Authorizer } from '../../auth/authorizer';
import type { RbacAuthorizer } from '../../auth/rbac';
import type { BasicAuthenticator } from '../../auth/authn/basic';
import type { LoginThrottle } from '../../auth/authn/login-throttle';
import type { PasswordHashOptions } from '../../auth/password';
import type { ResourceStore } from '../../registry/resource-store';
import type { CredentialStore } from '../../registry/security/credentials';
import type { LastSuperAdminGuard } from '../../registry/security/last-super-admin';
import type { SecurityCache } from '../../registry/security/security-cache';
import type { RequestContext } from '../context';
import { decodeBody, readBody } from '../body';
import type { ConditionalObjects } from './conditional-review';
import type { DeclaredObject } from '../../auth/plugin-declarations';

/**
 * The objects an installed plugin declares in `extensions/`, as loaded (undefined: no such plugin here); set once
 * the plugin host runs, for the impact review of a Plugin.
 */
export interface PluginExtensions {
  of?: (plugin: string) => readonly DeclaredObject[] | undefined;
}

/** What the security endpoints (passwords, tokens, permissions, access reviews) are built from. */
export interface SecurityDeps {
  cache: SecurityCache;
  credentials: CredentialStore;
  authorizer: RbacAuthorizer;
  /** What every request is judged by (RBAC, or AlwaysAllow): writes an endpoint makes on the caller's behalf are too. */
  requestAuthorizer: Authorizer;
  /** Whether requests are judged by RBAC (not AlwaysAllow): checks of what a caller holds apply only then. */
  enforcesRbac: boolean;
  /** Refuses a change that would leave no enabled super administrator. */
  superAdmins: LastSuperAdminGuard;
  /** Checks an old password (refused 429 while locked) without counting a failure (the endpoint counts it). */
  basic: BasicAuthenticator;
  /** Failed logins; setting a user's password lifts their lock. */
  throttle: LoginThrottle;
  users: ResourceStore;
  tokens: ResourceStore;
  bindings: ResourceStore;
  maxBodyBytes: number;
  passwordHash?: PasswordHashOptions;
  /** Served models and stored objects, for access reviews that decide conditional rules. */
  conditionalObjects?: ConditionalObjects;
  pluginExtensions?: PluginExtensions;
}

/** The request body as a JSON (or YAML) object; 400 for anything else. */
export async function readObjectBody(ctx: RequestContext, deps: SecurityDeps): Promise<Record<string, unknown>> {
  const body = decodeBody(await readBody(ctx.req, deps.maxBodyBytes), ctx.req.headers['content-type']);
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw badRequest('the request body must be a JSON object');
  return body as Record<string, unknown>;
}

/** 405 unless the request's verb is one of `verbs`. */
export function requireVerb(ctx: RequestContext, ...verbs: string[]): void {
  if (!verbs.includes(ctx.info.verb)) throw methodNotAllowed(ctx.req.method ?? 'GET', ctx.info.path);
}

/** The user a `users/{name}/…` route is about: `-` is the caller. */
export const subjectName = (ctx: RequestContext): string => (ctx.info.name === '-' ? ctx.user.name : ctx.info.name);
