/**
 * `fn` over every item with at most `limit` calls in flight (each worker
 * takes the next item as soon as its last call ends); the results in the
 * items' order. The first failure stops the workers from starting more and
 * is thrown once the calls in flight have ended, so nothing runs on after
 * the caller has its answer.
 *
 * @example const marked = await mapConcurrent(names, 16, (name) => store.delete(name));
 */
export async function mapConcurrent<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`limit must be an integer ≥ 1, not ${limit}`);
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const index = next++;
      try {
        results[index] = await fn(items[index], index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}
