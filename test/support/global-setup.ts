import { startRedis, type RedisInstance } from './redis';

/**
 * Starts one private redis-server for the whole test run, unless REDIS_URL
 * names one. Workers inherit the URL through the environment; a failure is
 * recorded rather than thrown, so that tests without Redis still run and the
 * Redis tests fail with a message that says how to get one.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.REDIS_URL) return;
  try {
    const redis = await startRedis();
    process.env.SVC_TEST_REDIS_URL = redis.url;
    (globalThis as { svcTestRedis?: RedisInstance }).svcTestRedis = redis;
  } catch (err) {
    process.env.SVC_TEST_REDIS_ERROR = (err as Error).message;
  }
}
