/**
 * The three shapes of Redis a store URL may name, parsed from the URL (our
 * own query parameters already taken out of it):
 *
 * - `redis://host:port/db`, `rediss://…`: one Redis (ioredis takes the URL as it is);
 * - `redis+sentinel://[user:password@]h1:26379,h2:26379/<master name>[/<db>]`:
 *   the primary Sentinel names, followed across failovers;
 * - `redis+cluster://[user:password@]h1:7000,h2:7001`: Redis Cluster, found from any of the seed nodes.
 *
 * The `rediss+` forms connect over TLS. The user and password are those of
 * the data nodes; Sentinels are reached without them.
 */

/** One `host:port` of a Sentinel or a Cluster seed node. */
export interface RedisEndpoint {
  host: string;
  port: number;
}

/** What to connect to, and how. */
export type RedisTopology =
  | { kind: 'single'; url: string }
  | {
      kind: 'sentinel';
      sentinels: RedisEndpoint[];
      /** The name Sentinels know the primary by. */
      name: string;
      db: number;
      username?: string;
      password?: string;
      tls: boolean;
    }
  | { kind: 'cluster'; nodes: RedisEndpoint[]; username?: string; password?: string; tls: boolean };

const DEFAULT_PORT = { sentinel: 26379, cluster: 6379 } as const;
const MASTER_NAME = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * The topology of a Redis store URL. `hosts` are the URL's `host:port` entries
 * (a Sentinel or Cluster URL lists several, comma-separated).
 *
 * @example redisTopology(new URL('redis+cluster://h:7000'), ['h:7000']) // { kind: 'cluster', nodes: [{ host: 'h', port: 7000 }], tls: false }
 */
export function redisTopology(url: URL, hosts: readonly string[]): RedisTopology {
  const scheme = url.protocol.replace(/:$/, '');
  if (scheme === 'redis' || scheme === 'rediss') return { kind: 'single', url: url.href };
  const match = /^(rediss?)\+(sentinel|cluster)$/.exec(scheme);
  if (!match) throw new Error(`"${scheme}" is not a Redis URL scheme`);
  const kind = match[2] as 'sentinel' | 'cluster';
  const leftover = [...url.searchParams.keys()];
  if (leftover.length > 0) throw new Error(`${scheme}:// URLs take no query parameter "${leftover[0]}"`);
  const endpoints = hosts.map((h) => endpoint(h, DEFAULT_PORT[kind]));
  if (endpoints.length === 0) throw new Error(`a ${scheme}:// URL needs at least one host:port`);
  const common = { tls: match[1] === 'rediss', ...credentials(url) };
  const path = url.pathname.split('/').filter((part) => part !== '');
  if (kind === 'cluster') {
    if (path.length > 0) throw new Error('a redis+cluster:// URL has no path: Redis Cluster has database 0 only');
    return { kind, nodes: endpoints, ...common };
  }
  return { kind, sentinels: endpoints, ...masterOf(path), ...common };
}

/** The user and password of a URL, decoded, when it has them. */
function credentials(url: URL): { username?: string; password?: string } {
  return {
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
  };
}

/** The master name and db of a Sentinel URL's path `/<name>[/<db>]`. */
function masterOf(path: string[]): { name: string; db: number } {
  const [name, db = '0', ...rest] = path;
  if (name === undefined || !MASTER_NAME.test(name) || rest.length > 0 || !/^(0|[1-9][0-9]?)$/.test(db)) {
    throw new Error('a redis+sentinel:// URL ends with /<master name>[/<db>], e.g. /svc-primary/0');
  }
  return { name, db: Number(db) };
}

/** `host:port` (or `[v6]:port`, or a host alone, which gets `fallbackPort`). */
function endpoint(text: string, fallbackPort: number): RedisEndpoint {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::([0-9]{1,5}))?$/.exec(text);
  const port = match?.[2] === undefined ? fallbackPort : Number(match[2]);
  if (!match || port < 1 || port > 65535) throw new Error(`"${text}" is not a host:port`);
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}

/** Where a topology points, for messages: hosts and ports, never a password. */
export function describeTopology(topology: RedisTopology): string {
  const list = (endpoints: RedisEndpoint[]) => endpoints.map((e) => `${e.host}:${e.port}`).join(',');
  switch (topology.kind) {
    case 'single': {
      const url = new URL(topology.url);
      return `${url.hostname}:${url.port || 6379}`;
    }
    case 'sentinel':
      return `primary "${topology.name}" of the Sentinels ${list(topology.sentinels)}`;
    case 'cluster':
      return `the Redis Cluster at ${list(topology.nodes)}`;
  }
}
