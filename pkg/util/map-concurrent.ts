/**
 * `task(0)` … `task(count - 1)` with at most `limit` calls in flight (each
 * worker takes the next index as soon as its last call ends). The first
 * failure stops the workers from starting more and is thrown once the calls
 * in flight have ended, so nothing runs on after the caller has its answer.
 *
 * @example await forEachConcurrent(20_000, 32, (i) => storage.create(type, item(i)));
 */
export async function forEachConcurrent(
  count: number,
  limit: number,
  task: (index: number) => Promise<unknown>,
): Promise<void> {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`limit must be an integer ≥ 1, not ${limit}`);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < count) {
      const index = next++;
      try {
        await task(index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  if (failure !== undefined) throw failure.error;
}

/**
 * `fn` over every item through `forEachConcurrent`, at most `limit` calls in
 * flight; the results in the items' order.
 *
 * @example const marked = await mapConcurrent(names, 16, (name) => store.delete(name));
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  await forEachConcurrent(items.length, limit, async (index) => {
    results[index] = await fn(items[index], index);
  });
  return results;
}
