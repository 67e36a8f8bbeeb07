import { sleep } from './backoff';

/**
 * Polls `probe` until it returns a truthy value or the deadline passes (an
 * error thrown by `probe` counts as not yet, and is named if time runs out):
 * how tests and benchmarks wait for a condition, never with a bare sleep.
 *
 * @example await waitFor(async () => (await get(url)).status === 200, { what: 'the persons API' });
 */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 20, what = 'condition' } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const cause = lastError instanceof Error ? `: last error: ${lastError.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${cause}`);
    }
    await sleep(intervalMs);
  }
}
