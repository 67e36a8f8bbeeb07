import type { IncomingMessage, ServerResponse } from 'node:http';
import { internalError, StatusError } from '../api/errors';
import { parseAccept } from '../util/accept';
import type { Logger } from '../util/log';
import { clientWentAway } from './client-gone';

/** Sends a JSON body with its status code; `warnings` are `Warning` header values (see WriteResult). */
export function sendJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  headers: Record<string, string> = {},
  warnings: string[] = [],
): void {
  // Encoded once: its length is the header, its bytes the body.
  const payload = Buffer.from(JSON.stringify(body));
  const head: Record<string, string | string[]> = {
    'Content-Type': 'application/json',
    'Content-Length': String(payload.length),
    ...headers,
  };
  if (warnings.length) head.Warning = warnings;
  res.writeHead(code, head);
  res.end(payload);
}

/**
 * Renders any error, once: a StatusError as a Kubernetes `Status` (or RFC 7807
 * when the client accepts `application/problem+json`); anything else is
 * logged with its stack and answered with a generic 500 that leaks nothing.
 * A failure because the client hung up is no server error: a debug line, and
 * nobody to answer.
 */
export function sendError(req: IncomingMessage, res: ServerResponse, err: unknown, log: Logger): void {
  const error = err instanceof StatusError ? err : internalError();
  if (!(err instanceof StatusError)) {
    if (clientWentAway(req, res, err)) {
      log.debug({ reason: (err as Error)?.message }, 'the client went away');
      res.destroy();
      return;
    }
    log.error({ err }, 'request failed');
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const { headers, payload } = renderError(error, req);
  res.writeHead(error.code, headers);
  res.end(payload);
}

/** An error as an HTTP answer: its headers and body. */
export interface RenderedError {
  headers: Record<string, string>;
  payload: string;
}

/**
 * The one rendering of a StatusError: a Kubernetes `Status`, or RFC 7807 for a
 * client that accepts `application/problem+json`. Used for every answer,
 * including those written straight to a socket (refused upgrades, requests
 * Node could not parse).
 */
export function renderError(error: StatusError, req?: Pick<IncomingMessage, 'headers' | 'url'>): RenderedError {
  const wantsProblem = prefersProblemJson(req?.headers.accept);
  const body = wantsProblem ? error.toProblem((req?.url ?? '/').split('?')[0]) : error.toStatus();
  const payload = JSON.stringify(body);
  return {
    headers: {
      'Content-Type': wantsProblem ? 'application/problem+json' : 'application/json',
      'Content-Length': String(Buffer.byteLength(payload)),
      ...error.headers,
    },
    payload,
  };
}

/**
 * Whether an `Accept` header asks for RFC 7807 errors: it names `application/problem+json` with a quality
 * at least that of `application/json` (or of a wildcard covering it). `application/json,
 * application/problem+json;q=0.5` prefers plain JSON.
 */
export function prefersProblemJson(accept: string | undefined): boolean {
  let problem = 0;
  let json = 0;
  for (const { type: main, subtype, q } of parseAccept(accept)) {
    const type = `${main}/${subtype}`;
    if (type === 'application/problem+json') problem = Math.max(problem, q);
    else if (type === 'application/json' || type === 'application/*' || type === '*/*') json = Math.max(json, q);
  }
  return problem > 0 && problem >= json;
}
