import { runConcurrently } from './concurrency';

describe('runConcurrently', () => {
  it('runs every index once, counts each in the progress and answers the wall time', async () => {
    const seen: number[] = [];
    const progress = { done: 0 };
    const ms = await runConcurrently(
      50,
      4,
      async (i) => {
        seen.push(i);
      },
      progress,
    );
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(progress.done).toBe(50);
    expect(ms).toBeGreaterThanOrEqual(0);
  });

  it('throws the first failure and does not count it', async () => {
    const progress = { done: 0 };
    const run = runConcurrently(
      3,
      1,
      async (i) => {
        if (i === 1) throw new Error('boom');
      },
      progress,
    );
    await expect(run).rejects.toThrow('boom');
    expect(progress.done).toBe(1);
  });
});
