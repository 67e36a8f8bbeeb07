import { holdsFor, waitForDrain } from './wait-for';

/** A count that answers the given values in turn, then keeps answering the last. */
const counting = (...values: number[]) => {
  let at = 0;
  return async () => values[Math.min(at++, values.length - 1)];
};

describe('waitForDrain', () => {
  it('resolves once the count reaches 0, however long it takes while it keeps going down', async () => {
    await expect(
      waitForDrain(counting(5, 5, 4, 4, 3, 2, 1, 0), { intervalMs: 1, stallMs: 1000 }),
    ).resolves.toBeUndefined();
  });

  it('fails naming the count it stuck at when the count stops going down', async () => {
    await expect(
      waitForDrain(counting(5, 3, 3), { intervalMs: 1, stallMs: 30, what: 'the batch to go' }),
    ).rejects.toThrow('gave up waiting for the batch to go: stuck at 3 for 30 ms');
  });

  it('does not count a rise as progress', async () => {
    await expect(waitForDrain(counting(3, 4, 5, 5), { intervalMs: 1, stallMs: 30 })).rejects.toThrow('stuck at 3');
  });
});

describe('holdsFor', () => {
  it('resolves when the condition holds for the whole window, checking it more than once', async () => {
    let checks = 0;
    await expect(holdsFor(() => ++checks > 0, { forMs: 30, intervalMs: 1 })).resolves.toBeUndefined();
    expect(checks).toBeGreaterThan(1);
  });

  it('fails naming the condition as soon as it stops holding', async () => {
    let checks = 0;
    await expect(
      holdsFor(() => ++checks < 3, { forMs: 10_000, intervalMs: 1, what: 'kubectl waiting' }),
    ).rejects.toThrow('kubectl waiting stopped holding before 10000 ms');
    expect(checks).toBe(3);
  });
});
