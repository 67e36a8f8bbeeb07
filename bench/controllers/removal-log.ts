import type { ApiClient } from '../../pkg/client';
import type { ResourceRef } from '../../pkg/client/resource';

/**
 * Follows a resource's watch and records, per object name, when it was seen
 * marked (a MODIFIED event carrying `deletionTimestamp`) and when it was
 * removed (DELETED): the two ends of what the gc controller does.
 */
export class RemovalLog {
  readonly markedAt = new Map<string, number>();
  readonly removedAt = new Map<string, number>();
  private readonly waiters: (() => void)[] = [];
  private stopWatch: (() => void) | undefined;

  /** Starts following from `resourceVersion`; resolves once the watch is open. */
  async start(client: ApiClient, resource: ResourceRef, resourceVersion: string): Promise<void> {
    const stream = await client.watch(resource, { resourceVersion });
    this.stopWatch = () => stream.stop();
    void (async () => {
      for await (const event of stream) {
        const name = event.object.metadata.name ?? '';
        const now = performance.now();
        if (event.type === 'DELETED') this.removedAt.set(name, now);
        else if (event.object.metadata.deletionTimestamp && !this.markedAt.has(name)) this.markedAt.set(name, now);
        for (const wake of this.waiters.splice(0)) wake();
      }
    })().catch(() => undefined);
  }

  /** Resolves once every name in `names` was removed, or rejects after `timeoutMs`. */
  async untilRemoved(names: readonly string[], timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (names.some((n) => !this.removedAt.has(n))) {
      const left = deadline - performance.now();
      if (left <= 0) {
        const missing = names.filter((n) => !this.removedAt.has(n)).length;
        throw new Error(`${missing} of ${names.length} objects were not removed within ${timeoutMs} ms`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1000));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  stop(): void {
    this.stopWatch?.();
  }
}
