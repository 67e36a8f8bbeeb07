import { runConcurrently } from './concurrency';

/** A promise and the function that resolves it. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => undefined as void;
  const promise = new Promise<void>((r) => { resolve = r; });
  return { promise, resolve };
}

describe('runConcurrently', () => {
  it('runs every index once, never more than the concurrency at a time', async () => {
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    const progress = { done: 0 };
    await runConcurrently(50, 4, async (i) => {
      inFlight++;
      most = Math.max(most, inFlight);
      seen.push(i);
      await Promise.resolve();
      inFlight--;
    }, progress);
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(most).toBe(4);
    expect(progress.done).toBe(50);
  });

  it('starts nothing more after a failure, and throws it once those in flight have ended', async () => {
    const started: number[] = [];
    const slow = deferred();
    let slowEnded = false;
    const run = runConcurrently(100, 2, async (i) => {
      started.push(i);
      if (i === 0) {
        await slow.promise;
        slowEnded = true;
      }
      if (i === 3) throw new Error('boom');
    });
    const outcome = run.then(() => 'resolved', (err: Error) => err.message);
    await Promise.resolve();
    slow.resolve();
    expect(await outcome).toBe('boom');
    expect(slowEnded).toBe(true);
    expect(Math.max(...started)).toBeLessThan(10);
  });
});
