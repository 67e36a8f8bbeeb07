import type { ServerOptions } from 'node:http';
import type { HandlerSettings } from './handlers/deps';

/**
 * Node checks request deadlines on a timer of its own (every 30 s by default, so a 60 s timeout was answered after up
 * to 90 s): every second at most, so that a 408 comes within a second of the timeout. Each check walks the open
 * connections' list, which is cheap next to serving them.
 */
const MAX_CHECK_INTERVAL_MS = 1000;

/**
 * Node's server options from the settings: `requestTimeout` bounds the time to
 * receive a whole request (head and body; Node answers the head sooner, by
 * `headersTimeout`, which follows it when shorter than 60 s). A request that
 * is late reaches the server's `clientError` handler as `ERR_HTTP_REQUEST_TIMEOUT`.
 */
export function httpServerOptions(settings: HandlerSettings): ServerOptions {
  return {
    requestTimeout: settings.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(
      10,
      Math.min(MAX_CHECK_INTERVAL_MS, Math.floor(settings.requestTimeoutMs / 4)),
    ),
  };
}
