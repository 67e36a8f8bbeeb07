import type Redis from 'ioredis';

/**
 * Runs `work` and returns its result with the time Redis itself spent per
 * call of `command` meanwhile, in milliseconds (from `INFO commandstats`
 * before and after). Meaningful when nothing else sends that command to this
 * Redis meanwhile. Throws when `work` made no such call.
 *
 * @example const { result, msPerCall } = await withRedisTime(redis, 'evalsha', () => timeCalls(list, 35));
 */
export async function withRedisTime<T>(
  redis: Redis,
  command: string,
  work: () => Promise<T>,
): Promise<{ result: T; msPerCall: number }> {
  const before = commandStats(await redis.info('commandstats'), command);
  const result = await work();
  const after = commandStats(await redis.info('commandstats'), command);
  const made = after.calls - before.calls;
  if (made <= 0) throw new Error(`no ${command} call reached Redis`);
  return { result, msPerCall: (after.micros - before.micros) / made / 1000 };
}

/** The calls and total microseconds of `command` in an `INFO commandstats` reply (zero when absent). */
export function commandStats(info: string, command: string): { calls: number; micros: number } {
  const line = new RegExp(`^cmdstat_${command.toLowerCase()}:(.*)$`, 'm').exec(info)?.[1] ?? '';
  const field = (name: string) => Number(new RegExp(`(?:^|,)${name}=([0-9.]+)`).exec(line)?.[1] ?? 0);
  return { calls: field('calls'), micros: field('usec') };
}
