import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../util/log';
import type { RequestInfo } from './request-info';
import type { UserInfo } from '../auth/user';
import type { BoundCondition } from '../auth/rbac';
import type { ObjectAccess } from '../registry/resource-store';

/** Everything a handler needs about one request, built once by the server's pipeline. */
export interface RequestContext {
  /** The request id, also sent back as `X-Request-Id` and on every log line. */
  id: string;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  info: RequestInfo;
  user: UserInfo;
  log: Logger;
  /** Fires when the client goes away or the server shuts down. */
  signal: AbortSignal;
  /** A collection watch allowed only for some names (rules with `resourceNames`): those names. */
  watchNames?: string[];
  /**
   * A request allowed only by conditional rules: their conditions, bound to the caller (any one must hold).
   * Only the generic resource handlers admit such requests, and they apply it to every object they touch.
   */
  conditions?: BoundCondition[];
  /** `conditions` as the objects the request may write, set once the model is known. */
  access?: ObjectAccess;
  /** With `conditions`: subscribes to changes of them (the caller's roles changed); returns the unsubscribe. */
  conditionChanges?: (onChange: () => void) => () => void;
  /** How the authoriser decided the request, and why (for the audit record and a 403's details). */
  authorization?: { allowed: boolean; reason: string };
}
