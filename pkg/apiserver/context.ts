import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../util/log';
import type { RequestInfo } from './request-info';
import type { UserInfo } from '../auth/user';

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
  /** How the authoriser decided the request, and why (for the audit record and a 403's details). */
  authorization?: { allowed: boolean; reason: string };
}
