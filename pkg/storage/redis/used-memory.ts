import { Cluster } from 'ioredis';
import type { RedisClient } from './connection';

/** `used_memory` of an `INFO memory` answer, in bytes; undefined when the answer has none. */
export function usedMemoryOf(info: string): number | undefined {
  const match = /^used_memory:(\d+)\r?$/m.exec(info);
  return match ? Number(match[1]) : undefined;
}

/** How long a reading is reused: scrapes come every few seconds, and Redis memory moves slowly. */
const FRESH_MS = 5_000;

/**
 * The memory Redis reports in use (`INFO memory`, `used_memory`; summed over a
 * Cluster's masters), read when asked and reused for FRESH_MS, so that a
 * metrics scrape costs Redis one INFO at most every few seconds and
 * concurrent scrapes share it. A failed read answers the last value read
 * (undefined before the first).
 */
export class UsedMemory {
  private last: number | undefined;
  private readAt = -Infinity;
  private reading: Promise<number | undefined> | undefined;

  constructor(
    private readonly client: RedisClient,
    private readonly now: () => number = () => performance.now(),
  ) {}

  bytes(): Promise<number | undefined> {
    if (this.now() - this.readAt < FRESH_MS) return Promise.resolve(this.last);
    this.reading ??= this.read().finally(() => {
      this.reading = undefined;
    });
    return this.reading;
  }

  private async read(): Promise<number | undefined> {
    try {
      const nodes = this.client instanceof Cluster ? this.client.nodes('master') : [this.client];
      const answers = await Promise.all(nodes.map((node) => node.info('memory')));
      const values = answers.map(usedMemoryOf);
      if (values.every((v): v is number => v !== undefined)) this.last = values.reduce((sum, v) => sum + v, 0);
      this.readAt = this.now();
    } catch {
      // Redis unreachable: the last value stands, and the next scrape tries again.
    }
    return this.last;
  }
}
