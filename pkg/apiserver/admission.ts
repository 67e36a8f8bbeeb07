import { unauthorized, type StatusDetails } from '../api/errors';
import type { Authorizer } from '../auth/authorizer';
import type { BoundCondition } from '../auth/rbac';
import { isAnonymous, type UserInfo } from '../auth/user';
import type { RequestContext } from './context';
import { forbiddenRequest } from './forbidden';
import { describeConditions } from './object-access';
import type { RequestInfo } from './request-info';
import type { Route } from './routes';

const SELF_SERVICE_REASON = 'a self-service endpoint: it authorises what is asked itself';

/** What decides whether an authenticated request may go on (the apiserver's authorisation settings). */
export interface AdmissionDeps {
  authorizer: Authorizer;
  /** For a collection watch the authoriser denies: the names the user may watch (see ApiServerDeps). */
  watchableNames?: (user: UserInfo, info: RequestInfo) => 'all' | Set<string>;
  /** RBAC: the conditions under which conditional rules allow a request no rule allows outright. */
  conditions?: (user: UserInfo, info: RequestInfo) => BoundCondition[];
  /** Subscribes to changes of roles and bindings; returns the unsubscribe. */
  accessChanges?: (listener: () => void) => () => void;
  /** A 403's nearest miss, in its `details`. */
  denialDetails?: (user: UserInfo, info: RequestInfo) => Pick<StatusDetails, 'trace' | 'templates'>;
}

/** The part of a request that authorisation reads and sets: over HTTP its context, in process a read's own. */
export type AdmissionRequest = Pick<
  RequestContext,
  'user' | 'info' | 'log' | 'authorization' | 'watchNames' | 'conditions' | 'conditionChanges'
>;

/**
 * The authorisation of every request, over HTTP or in process (the same decision for both): allowed outright, or
 * for some objects only (a named watch, conditional rules), or refused — 401 for the anonymous, 403 for a user
 * (docs/security.md).
 */
export class Admission {
  constructor(private readonly deps: AdmissionDeps) {}

  /** Decides an authenticated request; sets how (`authorization`) and for which objects; throws when refused. */
  async authorize(ctx: AdmissionRequest, route?: Route): Promise<void> {
    if (route?.selfService && !isAnonymous(ctx.user)) {
      ctx.authorization = { allowed: true, reason: SELF_SERVICE_REASON };
      return;
    }
    const { decision, reason } = await this.deps.authorizer.authorize({ user: ctx.user, info: ctx.info });
    ctx.authorization = { allowed: decision === 'Allow', reason };
    if (decision === 'Allow' || this.admitPartly(ctx, reason, route)) return;
    ctx.log.info({ user: ctx.user.name, verb: ctx.info.verb, path: ctx.info.path, reason }, 'request denied');
    if (ctx.user.name === 'anonymous') throw unauthorized();
    throw forbiddenRequest(ctx.user, ctx.info, this.deps.denialDetails?.(ctx.user, ctx.info));
  }

  /**
   * A request no rule allows outright, admitted for some objects: a collection watch of the names rules allow, or
   * (generic handlers only) the objects conditional rules allow. The authorisation's reason says which.
   */
  private admitPartly(ctx: AdmissionRequest, reason: string, route: Route | undefined): boolean {
    if (this.admitNamedWatch(ctx)) {
      ctx.authorization = { allowed: true, reason: `${reason}; a watch of the names the user's rules allow` };
      return true;
    }
    if (route || !this.admitConditional(ctx)) return false;
    // The reason is put into words only if something reads it (the audit of a write).
    const conditions = ctx.conditions ?? [];
    ctx.authorization = {
      allowed: true,
      get reason() {
        return `${reason}; allowed for the objects where ${describeConditions(conditions)}`;
      },
    };
    return true;
  }

  /**
   * A watch of a collection the user may not watch as a whole is still
   * admitted when rules allow some of its objects by name: it then sees only those.
   */
  private admitNamedWatch(ctx: AdmissionRequest): boolean {
    if (ctx.info.verb !== 'watch' || ctx.info.name || !this.deps.watchableNames) return false;
    const names = this.deps.watchableNames(ctx.user, ctx.info);
    if (names === 'all' || names.size === 0) return false;
    ctx.watchNames = [...names];
    return true;
  }

  /**
   * A request of the generic resource handlers that conditional rules allow for some objects is admitted with
   * those conditions, which the handlers apply to every object they read or write. Custom routes (plugins,
   * security endpoints) never are: they do not apply conditions.
   */
  private admitConditional(ctx: AdmissionRequest): boolean {
    const conditionsOf = this.deps.conditions;
    if (!ctx.info.isResourceRequest || !conditionsOf) return false;
    if (ctx.info.subresource !== '' && ctx.info.subresource !== 'status') return false;
    const conditions = conditionsOf(ctx.user, ctx.info);
    if (conditions.length === 0) return false;
    ctx.conditions = conditions;
    const { accessChanges } = this.deps;
    if (accessChanges) {
      const key = (c: BoundCondition[]) => JSON.stringify(c.map((b) => b.where));
      ctx.conditionChanges = (onChange) => {
        const admitted = key(conditions);
        return accessChanges(() => {
          if (key(conditionsOf(ctx.user, ctx.info)) !== admitted) onChange();
        });
      };
    }
    return true;
  }
}
