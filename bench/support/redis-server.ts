import { startRedisServer } from '../../pkg/util/redis-server';

/** The Redis a benchmark runs against. */
export interface BenchRedis {
  /** e.g. `redis://127.0.0.1:40123/0`. */
  url: string;
  /** Where it comes from, for the report: `REDIS_URL` or `private redis-server (…)`. */
  origin: string;
  /** Stops the private server and removes its directory; nothing for a `REDIS_URL` one. */
  stop(): Promise<void>;
}

/**
 * The Redis to benchmark against: `REDIS_URL` when it is set, else a private
 * `redis-server` on a free port in a scratch directory, without persistence,
 * which `stop()` ends.
 *
 * @example const redis = await benchRedis(); try { … } finally { await redis.stop(); }
 */
export async function benchRedis(): Promise<BenchRedis> {
  const external = process.env.REDIS_URL;
  if (external) return { url: external, origin: 'REDIS_URL', stop: async () => undefined };
  const server = await startRedisServer();
  return {
    url: server.url,
    origin: `private redis-server on port ${server.port}, no persistence`,
    stop: server.destroy,
  };
}
