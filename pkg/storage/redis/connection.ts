import Redis, { Cluster, type RedisOptions } from 'ioredis';
import { Backoff } from '../../util/backoff';
import { StorageError, unavailable } from '../errors';
import type { StorageOptions } from '../interface';
import type { IndexLayout } from './keys';
import type { ObjectCompression } from './stored-objects';
import { describeTopology, redisTopology, type RedisTopology } from './topology';

/** A connection to one Redis (alone or found through Sentinel) or to a Redis Cluster. */
export type RedisClient = Redis | Cluster;

/**
 * When a write is answered (ADR 0034): once the primary has it (`primary`),
 * once a replica has it too (`replica`, WAIT), or once it is in the primary's
 * append-only file (`aof`, WAITAOF).
 */
export type WriteAck = 'primary' | 'replica' | 'aof';

/** Slot maps of a Cluster are read again this often, so that a promoted replica is found without a MOVED. */
const CLUSTER_SLOTS_REFRESH_MS = 1_000;

/** How long opening the storage waits for Redis before it fails with Unavailable. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * The backoff between retries of a Redis call that failed because Redis is
 * unreachable: 50 ms doubling up to 2 s, as the client's own reconnects.
 */
export const redisRetryBackoff = (): Backoff => new Backoff(50, 2_000);

/**
 * Client options that make every call fail fast while Redis is unreachable
 * instead of queueing it: no offline queue, a command in flight when the
 * connection drops is failed at once (never re-sent: a re-sent write could
 * run twice), and the client reconnects by itself with a capped backoff.
 */
export function failFastOptions(): RedisOptions {
  return {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (attempt: number) => Math.min(50 * 2 ** Math.min(attempt, 6), 2_000),
  };
}

/**
 * Where a storage URL points: the Redis topology (the URL without our own
 * query parameters), the key prefix, the index layout (ADR 0025), the
 * object compression (ADR 0026) and when writes are acknowledged (ADR 0034).
 * A setting in the URL's query wins over the option, which wins over the
 * default (`svc`, `plain`, `none`, `primary`).
 *
 * @example redisTarget(new URL('redis://h:6379/2?keyPrefix=t1'), {}) // { topology: { kind: 'single', url: 'redis://h:6379/2' }, keyPrefix: 't1', … }
 */
export function redisTarget(
  url: URL,
  options: Pick<StorageOptions, 'keyPrefix' | 'indexLayout' | 'compression'>,
  hosts: readonly string[] = [url.host],
): {
  topology: RedisTopology;
  keyPrefix: string;
  indexLayout: IndexLayout;
  compression: ObjectCompression;
  ack: WriteAck;
} {
  const copy = new URL(url.href);
  const fromUrl = copy.searchParams.get('keyPrefix');
  copy.searchParams.delete('keyPrefix');
  const prefix = fromUrl ?? options.keyPrefix ?? 'svc';
  if (prefix === '' || /[{}]/.test(prefix)) {
    throw new Error(`keyPrefix "${prefix}" must be non-empty and hold no braces (they delimit hash tags)`);
  }
  const indexLayout = choice(copy, 'indexLayout', options.indexLayout, ['plain', 'bucketed'] as const);
  const compression = choice(copy, 'compression', options.compression, ['none', 'deflate'] as const);
  const ack = choice(copy, 'ack', undefined, ['primary', 'replica', 'aof'] as const);
  return { topology: redisTopology(copy, hosts), keyPrefix: prefix, indexLayout, compression, ack };
}

/** A setting from the URL's query (taken out of it), else `given`, else the first allowed value. */
function choice<T extends string>(url: URL, name: string, given: T | undefined, allowed: readonly T[]): T {
  const value = url.searchParams.get(name) ?? given ?? allowed[0];
  url.searchParams.delete(name);
  if (!allowed.some((one) => one === value)) throw new Error(`${name} "${value}" must be ${allowed.join(' or ')}`);
  return value as T;
}

/**
 * A new client of `topology` with `options` (not connected when they say
 * `lazyConnect`). Through Sentinel it asks for the primary again on every
 * reconnect and drops a connection whose server answers READONLY (an old
 * primary that came back as a replica); it does not also listen to the
 * Sentinels (ioredis's `failoverDetector` leaves a socket open after `quit`).
 * A Cluster client follows MOVED
 * redirections (the command did not run) but never re-sends a command whose
 * connection closed (it may have run).
 */
export function newRedisClient(topology: RedisTopology, options: RedisOptions): RedisClient {
  switch (topology.kind) {
    case 'single':
      return new Redis(topology.url, options);
    case 'sentinel': {
      const tls = topology.tls ? { tls: {}, sentinelTLS: {}, enableTLSForSentinelMode: true } : {};
      return new Redis({
        ...options,
        ...tls,
        sentinels: topology.sentinels,
        name: topology.name,
        db: topology.db,
        username: topology.username,
        password: topology.password,
        reconnectOnError: (err) => err.message.startsWith('READONLY'),
      });
    }
    case 'cluster': {
      const { lazyConnect, enableOfflineQueue, enableReadyCheck, retryStrategy, ...perNode } = options;
      return new Cluster(topology.nodes, {
        lazyConnect,
        enableOfflineQueue,
        enableReadyCheck,
        clusterRetryStrategy: (attempt) => retryStrategy?.(attempt) ?? null,
        retryDelayOnFailover: 0,
        retryDelayOnClusterDown: 0,
        slotsRefreshInterval: CLUSTER_SLOTS_REFRESH_MS,
        redisOptions: {
          ...perNode,
          username: topology.username,
          password: topology.password,
          ...(topology.tls ? { tls: {} } : {}),
        },
      });
    }
  }
}

/**
 * Opens a fail-fast client and waits until it is ready. An unreachable Redis
 * is Unavailable (the message names hosts and ports, never the password).
 * `name` is the client name Redis shows in CLIENT LIST.
 */
export async function connectClient(
  topology: RedisTopology,
  name: string,
  extra: RedisOptions = {},
): Promise<RedisClient> {
  const options = { ...failFastOptions(), connectionName: name, ...extra };
  let connected = false;
  // The first attempt is not retried: a failed open ends the client by itself. (Ending it with disconnect()
  // after its socket has closed leaves ioredis's 2 s disconnect timer holding the process open.)
  const client = newRedisClient(topology, {
    ...options,
    retryStrategy: (attempt) => (connected ? options.retryStrategy?.(attempt) : null),
  });
  // Connection errors surface as failed commands; without a listener ioredis would print each one.
  // The first one says why an open failed (ECONNREFUSED, ENOTFOUND) better than the rejection does.
  let firstError: unknown;
  client.on('error', (err) => {
    firstError ??= err;
  });
  try {
    await client.connect();
    connected = true;
  } catch (err) {
    if (client.status !== 'end') client.disconnect();
    throw unavailable(`cannot reach Redis at ${describeTopology(topology)}: ${messageOf(firstError ?? err)}`);
  }
  return client;
}

// Replies that mean "not now" rather than "wrong": a retry may succeed.
const TRANSIENT_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|CLUSTERDOWN|TRYAGAIN|NOREPLICAS|OOM)\b/;

/**
 * The error a failed Redis call becomes: StorageErrors pass through; lost or
 * refused connections and transient replies become Unavailable; anything else
 * (a script bug) passes through unchanged.
 */
export function translateError(err: unknown, what: string): Error {
  if (err instanceof StorageError) return err;
  const error = err instanceof Error ? err : new Error(String(err));
  if (error.name === 'ReplyError' && !TRANSIENT_REPLY.test(error.message)) return error;
  return unavailable(`${what}: Redis is unavailable (${error.message})`);
}

/** Runs a Redis call, translating its failure (see translateError). */
export async function redisCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw translateError(err, what);
  }
}

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));
