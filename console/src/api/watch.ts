import { currentBearerToken } from './client';

/** One watch event (docs/api.md, Watch). */
export interface WatchEvent<T = unknown> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

/** What a watch is opened with besides its path. */
export interface WatchOptions {
  resourceVersion?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/** The plain subprotocol the server picks; the token rides in a second one (browsers cannot set headers here). */
const PROTOCOL = 'svc.watch';
const TOKEN_PROTOCOL_PREFIX = 'base64url.bearer.authorization.k8s.io.';

const base64url = (text: string) =>
  btoa(unescape(encodeURIComponent(text)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/** The `ws://`/`wss://` URL of a collection or object path on this origin, with the watch's parameters. */
export function watchUrl(path: string, options: WatchOptions, origin = location): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(options)) if (value) params.set(key, value);
  const scheme = origin.protocol === 'https:' ? 'wss:' : 'ws:';
  const query = params.toString();
  return `${scheme}//${origin.host}${path}${query ? `?${query}` : ''}`;
}

/**
 * Watches a collection (or one object) over a WebSocket with the session's
 * token. `onEvent` gets each event; `onEnd` is called once when the watch
 * ends (server timeout, error, network). Returns what stops it.
 */
export function openWatch<T>(
  path: string,
  options: WatchOptions,
  onEvent: (event: WatchEvent<T>) => void,
  onEnd: () => void,
): () => void {
  const token = currentBearerToken();
  const protocols = token ? [PROTOCOL, TOKEN_PROTOCOL_PREFIX + base64url(token)] : [PROTOCOL];
  const ws = new WebSocket(watchUrl(path, options), protocols);
  let stopped = false;
  ws.onmessage = (message) => {
    if (typeof message.data === 'string') onEvent(JSON.parse(message.data) as WatchEvent<T>);
  };
  ws.onclose = () => {
    if (!stopped) onEnd();
  };
  return () => {
    stopped = true;
    ws.close();
  };
}
