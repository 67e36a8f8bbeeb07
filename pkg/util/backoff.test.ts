import { Backoff, sleep } from './backoff';

describe('Backoff', () => {
  it('multiplies the delay by the factor up to the cap, and starts over after reset', () => {
    const backoff = new Backoff(100, 1_000, 2, 0);
    expect([1, 2, 3, 4, 5, 6].map(() => backoff.next())).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    backoff.reset();
    expect(backoff.next()).toBe(100);
  });

  it('stretches each delay by at most the jitter fraction', () => {
    const backoff = new Backoff(1_000, 1_000, 2, 0.2);
    for (let i = 0; i < 50; i++) {
      const ms = backoff.next();
      expect(ms).toBeGreaterThanOrEqual(1_000);
      expect(ms).toBeLessThanOrEqual(1_200);
    }
  });

  it('wait() ends at once when its signal aborts, and still moves to the next delay', async () => {
    const backoff = new Backoff(60_000, 60_000, 2, 0);
    const abort = new AbortController();
    const waiting = backoff.wait(abort.signal);
    abort.abort();
    await expect(waiting).resolves.toBeUndefined();
    backoff.reset();
    expect(backoff.next()).toBe(60_000);
  });
});

describe('sleep', () => {
  it('resolves after the delay', async () => {
    jest.useFakeTimers();
    try {
      let done = false;
      const sleeping = sleep(1_000).then(() => {
        done = true;
      });
      await jest.advanceTimersByTimeAsync(999);
      expect(done).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      await sleeping;
      expect(done).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });

  it('resolves at once for a signal that has already aborted', async () => {
    await expect(sleep(60_000, AbortSignal.abort())).resolves.toBeUndefined();
  });
});
