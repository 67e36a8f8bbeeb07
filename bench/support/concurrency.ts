import type { ProgressCounter } from './progress';

/**
 * Runs `operation(0)` … `operation(count - 1)` with at most `concurrency` in
 * flight (each worker starts the next index as soon as its last one ends) and
 * returns the wall time in milliseconds. The first failure stops the workers
 * from starting more and is thrown once those in flight have ended.
 *
 * @example const ms = await runConcurrently(20_000, 32, (i) => storage.create(type, item(i)));
 */
export async function runConcurrently(
  count: number, concurrency: number, operation: (index: number) => Promise<unknown>,
  progress: ProgressCounter = { done: 0 },
): Promise<number> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (failure === undefined && next < count) {
      const index = next++;
      try {
        await operation(index);
      } catch (error) {
        failure ??= { error };
        return;
      }
      progress.done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  const elapsed = performance.now() - started;
  if (failure !== undefined) throw failure.error;
  return elapsed;
}
