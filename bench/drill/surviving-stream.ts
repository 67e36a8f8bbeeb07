import Redis from 'ioredis';
import type { ResourceType } from '../../pkg/storage/interface';
import { typeKeys } from '../../pkg/storage/redis';
import { counterOf, type SurvivingEntry } from './failover-workload';

/** The change stream of `type` the Redis on `port` has now: revision → the counter written there. */
export async function survivingStream(
  port: number,
  keyPrefix: string,
  type: ResourceType,
): Promise<Map<number, SurvivingEntry>> {
  const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true });
  try {
    await redis.connect();
    const surviving = new Map<number, SurvivingEntry>();
    let from = '-';
    for (;;) {
      const entries = await redis.xrange(typeKeys(keyPrefix, type).stream, from, '+', 'COUNT', 10_000);
      for (const [id, fields] of entries) {
        const object = JSON.parse(fields[fields.indexOf('o') + 1]) as Parameters<typeof counterOf>[0];
        surviving.set(Number(id.split('-')[0]), { name: object.metadata.name ?? '', value: counterOf(object) });
      }
      if (entries.length < 10_000) return surviving;
      from = `(${entries[entries.length - 1][0]}`;
    }
  } finally {
    redis.disconnect();
  }
}
