import type { CallVia, UserInfo } from '../../auth/user';
import type { RequestInfo } from '../request-info';

/**
 * One audit record: who did what, how it was decided, and why
 * (docs/security.md, "Audit"). `reason` is the authoriser's one line: the
 * binding → role that allowed, or why nothing did.
 */
export interface AuditRecord {
  time: string;
  requestId: string;
  user: string;
  authenticatedBy: 'password' | 'token' | 'anonymous' | 'controller-manager' | 'plugin';
  tokenName?: string;
  /** A call a plugin's route handler made for the user (`req.client`): the plugin, and the route request's id. */
  via?: CallVia;
  verb: string;
  group: string;
  resource: string;
  subresource: string;
  name: string;
  path: string;
  code: number;
  decision: 'allow' | 'deny';
  reason: string;
}

/** `--audit-level`: nothing; writes, refusals and reviews (the default); those and allowed reads. */
export type AuditLevel = 'None' | 'Writes' | 'All';
export const AUDIT_LEVELS: readonly AuditLevel[] = ['None', 'Writes', 'All'];

/** How the request's user was decided, as the authoriser saw it (set by the request pipeline). */
export interface AuthorizationOutcome {
  allowed: boolean;
  reason: string;
}

const READ_VERBS: ReadonlySet<string> = new Set(['get', 'list', 'watch', 'head', 'options']);
/** Refusals every level but None records: no or bad credentials, not allowed, too many failed logins. */
const REFUSALS: ReadonlySet<number> = new Set([401, 403, 429]);

/** Whether a request answered with `code` is recorded at `level`. */
export function isAudited(level: AuditLevel, verb: string, code: number): boolean {
  if (level === 'None') return false;
  return level === 'All' || !READ_VERBS.has(verb) || REFUSALS.has(code);
}

/** The user name every plugin acts as starts with this (its identity is given by the plugin host). */
const PLUGIN_USER_PREFIX = 'system:plugin:';
const CONTROLLER_MANAGER_USER = 'system:controller-manager';

/** An answered request as its audit record reads it, over HTTP or in process. */
export interface AuditedRequest {
  id: string;
  user: UserInfo;
  info: RequestInfo;
  /** The status code it was answered with. */
  code: number;
  /** Its `Authorization` header, if any (how a user who is no platform identity logged in). */
  authorization?: string;
}

function authenticatedBy(ctx: AuditedRequest): AuditRecord['authenticatedBy'] {
  if (ctx.user.name === CONTROLLER_MANAGER_USER) return 'controller-manager';
  // A plugin's own identity, or a user's call its route handler made for them: the plugin host vouched for both.
  if (ctx.user.name.startsWith(PLUGIN_USER_PREFIX) || ctx.user.via !== undefined) return 'plugin';
  const scheme = /^\s*(\w+)/.exec(ctx.authorization ?? '')?.[1]?.toLowerCase();
  if (ctx.user.name === 'anonymous' && ctx.user.groups.length === 1) return 'anonymous';
  return scheme === 'basic' ? 'password' : 'token';
}

/** The record of an answered request. */
export function auditRecordOf(ctx: AuditedRequest, outcome: AuthorizationOutcome | undefined): AuditRecord {
  const code = ctx.code;
  const allowed = outcome?.allowed ?? false;
  return {
    time: new Date().toISOString(),
    requestId: ctx.id,
    user: ctx.user.name,
    authenticatedBy: authenticatedBy(ctx),
    ...(ctx.user.tokenName === undefined ? {} : { tokenName: ctx.user.tokenName }),
    ...(ctx.user.via === undefined ? {} : { via: ctx.user.via }),
    verb: ctx.info.verb,
    group: ctx.info.apiGroup,
    resource: ctx.info.resource,
    subresource: ctx.info.subresource,
    name: ctx.info.name,
    path: ctx.info.path,
    code,
    decision: allowed && code !== 401 && code !== 403 && code !== 429 ? 'allow' : 'deny',
    reason: reasonOf(outcome, code),
  };
}

/** The authoriser's reason; an allowed request its endpoint refused says so. */
function reasonOf(outcome: AuthorizationOutcome | undefined, code: number): string {
  if (outcome === undefined) return refusedBeforeAuthorisation(code);
  if (outcome.allowed && (code === 403 || code === 429))
    return `${outcome.reason}; then refused by the endpoint (${code})`;
  return outcome.reason;
}

/** Why a request was refused before the authoriser was asked. */
function refusedBeforeAuthorisation(code: number): string {
  if (code === 401) return 'the credentials were wrong or missing';
  if (code === 429) return 'too many failed logins: refused before checking the credentials';
  return 'refused before authorisation';
}
