import { ExponentialRateLimiter } from './rate-limiter';
import { WorkQueue } from './workqueue';

/** Whether a promise has settled, after letting pending callbacks run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return done;
}

describe('WorkQueue: keys and processing', () => {
  it('hands out a key queued several times once, in FIFO order', async () => {
    const queue = new WorkQueue();
    queue.add('a');
    queue.add('b');
    queue.add('a');
    expect(queue.len()).toBe(2);
    expect(await queue.get()).toBe('a');
    expect(await queue.get()).toBe('b');
    expect(await settled(queue.get())).toBe(false);
  });

  it('never hands out a key that is being processed, even when added again', async () => {
    const queue = new WorkQueue();
    queue.add('a');
    expect(await queue.get()).toBe('a');
    queue.add('a');
    const second = queue.get();
    expect(await settled(second)).toBe(false);
    queue.done('a');
    expect(await second).toBe('a');
  });

  it('processes a key added several times during processing exactly once afterwards', async () => {
    const queue = new WorkQueue();
    queue.add('a');
    await queue.get();
    queue.add('a');
    queue.add('a');
    queue.add('a');
    expect(queue.len()).toBe(0);
    queue.done('a');
    expect(queue.len()).toBe(1);
    expect(await queue.get()).toBe('a');
    queue.done('a');
    expect(queue.len()).toBe(0);
    expect(await settled(queue.get())).toBe(false);
  });

  it('does not reprocess a key that was not added again during processing', async () => {
    const queue = new WorkQueue();
    queue.add('a');
    await queue.get();
    queue.done('a');
    expect(queue.len()).toBe(0);
    expect(queue.inFlight()).toBe(0);
  });

  it('wakes a waiting worker when a key arrives', async () => {
    const queue = new WorkQueue();
    const waiting = queue.get();
    queue.add('x');
    expect(await waiting).toBe('x');
    expect(queue.inFlight()).toBe(1);
  });
});

describe('WorkQueue: delays and backoff', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('addAfter queues the key only once the delay passed', async () => {
    const queue = new WorkQueue();
    queue.addAfter('a', 100);
    await jest.advanceTimersByTimeAsync(99);
    expect(queue.len()).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(queue.len()).toBe(1);
  });

  it('addAfter keeps the earliest of several pending delays', async () => {
    const queue = new WorkQueue();
    queue.addAfter('a', 100);
    queue.addAfter('a', 30);
    queue.addAfter('a', 200);
    await jest.advanceTimersByTimeAsync(30);
    expect(queue.len()).toBe(1);
    expect(await queue.get()).toBe('a');
    queue.done('a');
    await jest.advanceTimersByTimeAsync(500);
    expect(queue.len()).toBe(0);
  });

  it('addRateLimited backs a failing key off exponentially until forget resets it', async () => {
    const queue = new WorkQueue({ rateLimiter: new ExponentialRateLimiter(5, 1000) });
    const readyAfter = async (): Promise<number> => {
      queue.addRateLimited('a');
      let waited = 0;
      while (queue.len() === 0) {
        await jest.advanceTimersByTimeAsync(1);
        waited++;
      }
      await queue.get();
      queue.done('a');
      return waited;
    };
    expect([await readyAfter(), await readyAfter(), await readyAfter()]).toEqual([5, 10, 20]);
    expect(queue.retries('a')).toBe(3);
    queue.forget('a');
    expect(queue.retries('a')).toBe(0);
    expect(await readyAfter()).toBe(5);
  });
});

describe('WorkQueue: shutdown', () => {
  it('ends waiting and later gets with undefined and ignores new keys', async () => {
    const queue = new WorkQueue();
    const waiting = queue.get();
    queue.shutDown();
    expect(await waiting).toBeUndefined();
    queue.add('a');
    expect(queue.len()).toBe(0);
    expect(await queue.get()).toBeUndefined();
  });

  it('drops queued keys but lets the ones in flight finish; the drain waits for them', async () => {
    const queue = new WorkQueue();
    queue.add('a');
    queue.add('b');
    expect(await queue.get()).toBe('a');
    const drained = queue.shutDownWithDrain();
    expect(queue.len()).toBe(0);
    expect(await settled(drained)).toBe(false);
    queue.add('a');
    queue.done('a');
    expect(await settled(drained)).toBe(true);
    expect(queue.len()).toBe(0);
  });

  it('drains at once when nothing is in flight', async () => {
    const queue = new WorkQueue();
    queue.add('a');
    await expect(queue.shutDownWithDrain()).resolves.toBeUndefined();
  });

  it('cancels delayed keys', async () => {
    jest.useFakeTimers();
    try {
      const queue = new WorkQueue();
      queue.addAfter('a', 10);
      queue.shutDown();
      await jest.advanceTimersByTimeAsync(20);
      expect(queue.len()).toBe(0);
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
