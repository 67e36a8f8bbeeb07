import type { RedisClient } from './connection';
import { UsedMemory, usedMemoryOf } from './used-memory';

const INFO = '# Memory\r\nused_memory:1048576\r\nused_memory_human:1.00M\r\nused_memory_rss:4194304\r\n';

it('reads used_memory from an INFO memory answer, and nothing from one without it', () => {
  expect(usedMemoryOf(INFO)).toBe(1048576);
  expect(usedMemoryOf('# Memory\r\nused_memory_rss:4194304\r\n')).toBeUndefined();
});

it('reuses a reading for a few seconds, shares one in flight, and keeps the last value when Redis fails', async () => {
  let now = 0;
  let calls = 0;
  let failing = false;
  const client = {
    info: async () => {
      calls++;
      if (failing) throw new Error('connection lost');
      return `used_memory:${calls * 1000}\r\n`;
    },
  } as unknown as RedisClient;
  const memory = new UsedMemory(client, () => now);
  expect(await Promise.all([memory.bytes(), memory.bytes()])).toEqual([1000, 1000]);
  now = 4_000;
  expect(await memory.bytes()).toBe(1000);
  now = 6_000;
  expect(await memory.bytes()).toBe(2000);
  failing = true;
  now = 12_000;
  expect(await memory.bytes()).toBe(2000);
  expect(calls).toBe(3);
});
