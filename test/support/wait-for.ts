/**
 * Polls `probe` until it returns a truthy value or the deadline passes; the
 * way tests wait for a condition (never a bare sleep).
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
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
