import { collectGarbage } from './garbage';

/**
 * Prepares a contender for timing: a full garbage collection (so that it
 * does not pay for garbage that earlier work left) and `calls` untimed calls
 * (so that its code, caches and connection are warm).
 *
 * @example await warmUp(() => storage.list(type, { limit: 20 }), 5);
 */
export async function warmUp(run: () => Promise<unknown>, calls: number): Promise<void> {
  collectGarbage();
  for (let i = 0; i < calls; i++) await run();
}

/**
 * Calls `run` `calls` times in a row and returns each call's time in
 * milliseconds. A contender is timed in a block of its own, after warmUp:
 * interleaving a 1 ms call with one that loads 100k objects would charge the
 * small one for the large one's garbage, in Node and in Redis alike.
 *
 * @example const samples = await timeCalls(() => storage.list(type, { limit: 20 }), 35);
 */
export async function timeCalls(run: () => Promise<unknown>, calls: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples;
}
