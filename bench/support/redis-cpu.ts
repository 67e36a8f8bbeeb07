import type Redis from 'ioredis';

/**
 * The CPU time the Redis server has used so far, user plus system, in
 * microseconds (`INFO cpu`). The difference across a phase is what the
 * phase cost Redis, provided nothing else uses that Redis meanwhile.
 */
export async function redisCpuMicros(redis: Redis): Promise<number> {
  return cpuMicrosOf(await redis.info('cpu'));
}

/** `used_cpu_user + used_cpu_sys` of an `INFO cpu` reply, in microseconds. */
export function cpuMicrosOf(info: string): number {
  const seconds = (field: string): number => {
    const match = new RegExp(`^${field}:([0-9.]+)`, 'm').exec(info);
    if (match === null) throw new Error(`INFO cpu has no ${field}`);
    return Number(match[1]);
  };
  return Math.round((seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1e6);
}
