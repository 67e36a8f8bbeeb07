import type { IncomingMessage, ServerResponse } from 'node:http';

/** Error codes a request fails with when its client closed the connection. */
const CONNECTION_CLOSED = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_STREAM_DESTROYED',
  'ABORT_ERR',
]);

/** Whether an error says the connection closed under the request (the client hung up). */
export function isConnectionClosed(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && CONNECTION_CLOSED.has(code);
}

/**
 * Whether a request failed because its client went away: the error says the
 * connection closed, or the connection is already gone (nobody reads the answer).
 */
export function clientWentAway(req: IncomingMessage, res: ServerResponse, err: unknown): boolean {
  return isConnectionClosed(err) || res.destroyed || req.socket?.destroyed === true;
}
