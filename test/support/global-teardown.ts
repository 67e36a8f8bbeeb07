import type { RedisInstance } from './redis';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { svcTestRedis?: RedisInstance }).svcTestRedis?.destroy();
}
