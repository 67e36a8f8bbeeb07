import { forEachConcurrent, mapConcurrent } from './map-concurrent';

/** A call that stays pending until released, so that a test controls when each one ends. */
function gate() {
  let release: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { done, release };
}

describe('mapConcurrent', () => {
  it('returns the results in the order of the items, whatever order the calls end in', async () => {
    const gates = [gate(), gate(), gate()];
    const running = mapConcurrent([0, 1, 2], 3, async (i) => {
      await gates[i].done;
      return i * 10;
    });
    gates[2].release();
    gates[0].release();
    gates[1].release();
    expect(await running).toEqual([0, 10, 20]);
  });

  it('never has more than `limit` calls in flight, and starts the next as soon as one ends', async () => {
    let inFlight = 0;
    let most = 0;
    const started: number[] = [];
    const gates = Array.from({ length: 6 }, gate);
    const running = mapConcurrent([0, 1, 2, 3, 4, 5], 2, async (i) => {
      started.push(i);
      most = Math.max(most, ++inFlight);
      await gates[i].done;
      inFlight--;
    });
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    gates[1].release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.release();
    await running;
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('throws the first failure after the calls in flight end, and starts no more', async () => {
    const started: number[] = [];
    const slow = gate();
    let slowEnded = false;
    const running = mapConcurrent([0, 1, 2, 3], 2, async (i) => {
      started.push(i);
      if (i === 0) {
        await slow.done;
        slowEnded = true;
        return;
      }
      throw new Error(`item ${i} failed`);
    });
    const outcome = running.then(
      () => 'resolved',
      (err: Error) => err.message,
    );
    await new Promise((resolve) => setImmediate(resolve));
    slow.release();
    expect(await outcome).toBe('item 1 failed');
    expect(slowEnded).toBe(true);
    expect(started).toEqual([0, 1]);
  });

  it('handles no items and refuses a limit below one', async () => {
    expect(await mapConcurrent([], 4, () => Promise.resolve(1))).toEqual([]);
    await expect(mapConcurrent([1], 0, () => Promise.resolve(1))).rejects.toThrow(/limit/);
  });
});

describe('forEachConcurrent', () => {
  it('runs every index once, never more than the limit at a time', async () => {
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    await forEachConcurrent(50, 4, async (i) => {
      most = Math.max(most, ++inFlight);
      seen.push(i);
      await Promise.resolve();
      inFlight--;
    });
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(most).toBe(4);
  });
});
