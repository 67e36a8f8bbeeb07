import { WatcherQueue } from './watcher-queue';

class Overflow extends Error {}

const queue = (capacity = 3, extra: { backlog?: number[]; onEnd?: () => void } = {}) =>
  new WatcherQueue<number>({ capacity, overflowError: () => new Overflow('fell behind'), ...extra });

async function drain(q: WatcherQueue<number>, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const r = await q.next();
    if (r.done) break;
    out.push(r.value);
  }
  return out;
}

describe('WatcherQueue', () => {
  it('delivers pushed items in order, whether pushed before or after the read', async () => {
    const q = queue();
    q.push(1);
    q.push(2);
    expect(await q.next()).toEqual({ value: 1, done: false });
    const pending = q.next();
    const later = q.next();
    q.push(3);
    expect(await pending).toEqual({ value: 2, done: false });
    expect(await later).toEqual({ value: 3, done: false });
  });

  it('never runs the consumer inside the producer\'s push', async () => {
    const q = queue();
    const seen: number[] = [];
    const reading = q.next().then((r) => seen.push(r.value as number));
    q.push(7);
    expect(seen).toEqual([]);
    await reading;
    expect(seen).toEqual([7]);
  });

  it('holds `capacity` unread items, and ends the queue with the overflow error on the one after', async () => {
    const onEnd = jest.fn();
    const q = queue(3, { onEnd });
    for (const n of [1, 2, 3]) q.push(n);
    expect(q.open).toBe(true);
    q.push(4);
    expect(q.open).toBe(false);
    expect(q.queued).toBe(0);
    expect(onEnd).toHaveBeenCalledTimes(1);
    await expect(q.next()).rejects.toBeInstanceOf(Overflow);
    expect(await q.next()).toEqual({ value: undefined, done: true });
  });

  it('counts only unread items: a consumer that keeps up is never cut off', async () => {
    const q = queue(2);
    for (let n = 0; n < 100; n++) {
      q.push(n);
      expect(await q.next()).toEqual({ value: n, done: false });
    }
    expect(q.open).toBe(true);
  });

  it('serves the backlog first and does not count it against the capacity', async () => {
    const q = queue(1, { backlog: [1, 2, 3, 4] });
    q.push(5);
    expect(q.open).toBe(true);
    expect(await drain(q, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('stop resolves a pending read as done, drops queued items, and reports the end once', async () => {
    const onEnd = jest.fn();
    const q = queue(3, { onEnd });
    const pending = q.next();
    q.stop();
    expect(await pending).toEqual({ value: undefined, done: true });
    q.push(1);
    expect(await q.next()).toEqual({ value: undefined, done: true });
    q.stop();
    expect(onEnd).toHaveBeenCalledTimes(1);
  });

  it('fail rejects the pending read with the error, then the queue is done', async () => {
    const q = queue();
    const pending = q.next();
    q.fail(new Overflow('gone'));
    await expect(pending).rejects.toThrow('gone');
    expect(await q.next()).toEqual({ value: undefined, done: true });
  });

  it('leaving a for-await loop early stops the queue', async () => {
    const onEnd = jest.fn();
    const q = queue(3, { onEnd });
    q.push(1);
    q.push(2);
    for await (const n of q) {
      expect(n).toBe(1);
      break;
    }
    expect(onEnd).toHaveBeenCalledTimes(1);
    expect(await q.next()).toEqual({ value: undefined, done: true });
  });
});
