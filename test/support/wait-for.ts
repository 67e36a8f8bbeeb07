import { sleep } from '../../pkg/util/backoff';
import { waitFor } from '../../pkg/util/wait-for';

/** How tests wait for a condition: pkg/util's, shared with the benchmarks. */
export { waitFor };

/**
 * Polls `count` until it answers 0, failing only when it has not gone down
 * for `stallMs`: for work whose pace depends on how busy the machine is (the
 * gc removing thousands of objects while other suites run), so that a slow
 * machine passes and a stuck one fails with the count it stuck at.
 *
 * @example await waitForDrain(() => countPersons(server, 'big'), { what: 'the marked objects to be removed' });
 */
export async function waitForDrain(
  count: () => Promise<number>,
  { stallMs = 60_000, intervalMs = 250, what = 'count' } = {},
): Promise<void> {
  let lowest = await count();
  let lastProgress = Date.now();
  while (lowest > 0) {
    await sleep(intervalMs);
    const now = await count();
    if (now < lowest) {
      lowest = now;
      lastProgress = Date.now();
    } else if (Date.now() - lastProgress > stallMs) {
      throw new Error(`gave up waiting for ${what}: stuck at ${lowest} for ${stallMs} ms`);
    }
  }
}

/**
 * Polls `probe` for `forMs` and fails at once when it answers false: for what
 * must not happen during a window, when the thing watched gives no signal that
 * it has made up its mind (a process that must keep waiting). The window is
 * a bound on its decision time, not a measure of speed.
 *
 * @example await holdsFor(() => !exited, { forMs: 1000, what: 'kubectl to keep waiting' });
 */
export async function holdsFor(
  probe: () => boolean | Promise<boolean>,
  { forMs, intervalMs = 20, what = 'condition' }: { forMs: number; intervalMs?: number; what?: string },
): Promise<void> {
  const end = Date.now() + forMs;
  for (;;) {
    if (!(await probe())) throw new Error(`${what} stopped holding before ${forMs} ms`);
    if (Date.now() >= end) return;
    await sleep(intervalMs);
  }
}
