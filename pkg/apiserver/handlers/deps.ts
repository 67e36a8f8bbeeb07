/** Server settings handlers read. */
export interface HandlerSettings {
  /** Largest request body accepted (413 beyond), default 3 MiB. */
  maxBodyBytes: number;
  /** Longest a watch stays open before the server ends it, default 30 min. */
  watchTimeoutMs: number;
  /** How often a watch with `allowWatchBookmarks=true` gets a BOOKMARK. */
  bookmarkIntervalMs: number;
  /** A watcher whose unsent backlog passes this is dropped. */
  watchMaxBacklogBytes: number;
  /** Longest a client may take to send a whole request (head and body), default 60 s; 408 beyond. */
  requestTimeoutMs: number;
}

export const DEFAULT_SETTINGS: HandlerSettings = {
  maxBodyBytes: 3 * 1024 * 1024,
  watchTimeoutMs: 30 * 60_000,
  bookmarkIntervalMs: 30_000,
  watchMaxBacklogBytes: 16 * 1024 * 1024,
  requestTimeoutMs: 60_000,
};
