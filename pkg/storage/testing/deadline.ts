/** Rejection of `withDeadline`: the awaited thing did not happen in time (as opposed to a backend error). */
export class DeadlineError extends Error {
  override readonly name = 'DeadlineError';
}

/** How long the suite waits for anything asynchronous (an event, a build) before failing the test. */
export const DEFAULT_DEADLINE_MS = 10_000;

/**
 * Resolves as `promise` does, or rejects with a DeadlineError naming `what`
 * after `ms`. A deadline turns a hang into a clear failure; it is never a
 * timed assertion.
 *
 * @example await withDeadline(storage.whenIndexesReady(type), 10_000, 'the index build');
 */
export async function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
