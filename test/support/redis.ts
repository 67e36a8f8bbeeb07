import { randomBytes } from 'node:crypto';

/** The private redis-server the tests start: pkg/util's, shared with the benchmarks. */
export { startRedisServer as startRedis, type RedisServer as RedisInstance } from '../../pkg/util/redis-server';

const HOW_TO_GET_REDIS =
  'Redis is needed for this test. Install redis-server (Debian: apt-get install redis-server) so that ' +
  'the tests can start a private one, or set REDIS_URL=redis://host:port/db to use a running one.';

/**
 * The Redis the test run shares: `REDIS_URL` when set, else the one the jest
 * global setup started. Throws, with how to get one, when there is none.
 */
export function sharedRedisUrl(): string {
  const url = process.env.REDIS_URL ?? process.env.SVC_TEST_REDIS_URL;
  if (url) return url;
  throw new Error(`${HOW_TO_GET_REDIS} (${process.env.SVC_TEST_REDIS_ERROR ?? 'no Redis was started'})`);
}

/** A key prefix unique to one test, so that tests sharing a Redis never see each other's keys. */
export const uniqueKeyPrefix = (label = 't'): string => `${label}-${randomBytes(6).toString('hex')}`;
