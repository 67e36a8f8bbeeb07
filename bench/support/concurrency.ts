import { forEachConcurrent } from '../../pkg/util/map-concurrent';
import type { ProgressCounter } from './progress';

/**
 * Runs `operation(0)` … `operation(count - 1)` through the project's worker
 * pool (`forEachConcurrent`: at most `concurrency` in flight, the first
 * failure stops it), counts each success in `progress`, and returns the wall
 * time in milliseconds.
 *
 * @example const ms = await runConcurrently(20_000, 32, (i) => storage.create(type, item(i)));
 */
export async function runConcurrently(
  count: number,
  concurrency: number,
  operation: (index: number) => Promise<unknown>,
  progress: ProgressCounter = { done: 0 },
): Promise<number> {
  const started = performance.now();
  await forEachConcurrent(count, concurrency, async (index) => {
    await operation(index);
    progress.done++;
  });
  return performance.now() - started;
}
