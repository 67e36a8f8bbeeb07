import { waitFor } from '../util/wait-for';
import { WatcherQueue, deliveriesDone } from './watcher-queue';

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

  it("never runs the consumer inside the producer's push", async () => {
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

  describe('listen', () => {
    /** A listener that records its batches and its end, with a promise for the end. */
    function recorder() {
      const batches: number[][] = [];
      let endWith: (error: Error | undefined) => void = () => undefined;
      const ended = new Promise<Error | undefined>((resolve) => {
        endWith = resolve;
      });
      return {
        batches,
        ended,
        listener: {
          onEvents: (items: readonly number[]) => batches.push([...items]),
          onEnd: (e?: Error) => endWith(e),
        },
      };
    }
    const microtasks = () => new Promise<void>((resolve) => setImmediate(resolve));

    it('hands over the backlog and queued items first, then each synchronous run of pushes as one batch', async () => {
      const q = queue(3, { backlog: [1, 2] });
      q.push(3);
      const { batches, listener } = recorder();
      q.listen(listener);
      await microtasks();
      for (const n of [4, 5, 6, 7, 8]) q.push(n);
      expect(batches).toEqual([[1, 2, 3]]);
      await microtasks();
      q.push(9);
      await microtasks();
      expect(batches).toEqual([[1, 2, 3], [4, 5, 6, 7, 8], [9]]);
      expect(q.open).toBe(true);
    });

    it('delivers a change pushed to many listeners in slices, with other work served between them', async () => {
      const queues = Array.from({ length: 250 }, () => queue(10));
      const got = queues.map(() => [] as number[]);
      let ended = 0;
      queues.forEach((q, i) => q.listen({ onEvents: (items) => got[i].push(...items), onEnd: () => ended++ }));
      await microtasks();
      const delivered = () => got.filter((items) => items.length > 0).length;
      for (const q of queues) q.push(1);
      // Work that arrives while the fan-out runs (here: the next turn's callback) runs after its first slice.
      const seenBetween = new Promise<number>((resolve) => setImmediate(() => resolve(delivered())));
      expect(await seenBetween).toBe(100);
      // A change pushed while the rest waits reaches those watchers in the same batch as the first.
      for (const q of queues) q.push(2);
      await deliveriesDone();
      expect(got.every((items) => items.length === 2)).toBe(true);
      expect(got[0]).toEqual([1, 2]);
      expect(got[249]).toEqual([1, 2]);
      for (const q of queues) q.stop();
      await waitFor(() => ended === queues.length, { what: 'every listener to hear of the stop' });
    });

    it('answers deliveriesDone once what was scheduled before it ran, though more keeps coming', async () => {
      const queues = Array.from({ length: 250 }, () => queue(10));
      const got = queues.map(() => [] as number[]);
      queues.forEach((q, i) => q.listen({ onEvents: (items) => got[i].push(...items), onEnd: () => undefined }));
      await microtasks();
      for (const q of queues) q.push(0);
      let done = false;
      void deliveriesDone().then(() => (done = true));
      // A new change every turn keeps the list from running empty; the wait still ends.
      for (let change = 1; !done && change < 100; change++) {
        for (const q of queues) q.push(change);
        await microtasks();
      }
      expect(done).toBe(true);
      expect(got.every((items) => items[0] === 0)).toBe(true);
      for (const q of queues) q.stop();
      await deliveriesDone();
    });

    it('does not apply the capacity: a listener takes whatever is pushed', async () => {
      const q = queue(2);
      const { batches, listener } = recorder();
      q.listen(listener);
      for (let n = 0; n < 50; n++) q.push(n);
      await microtasks();
      expect(batches).toEqual([Array.from({ length: 50 }, (_, n) => n)]);
    });

    it('reports a failure once, after dropping what was queued', async () => {
      const onEnd = jest.fn();
      const q = queue(3, { onEnd });
      const { batches, ended, listener } = recorder();
      q.listen(listener);
      q.push(1);
      q.fail(new Overflow('gone'));
      q.push(2);
      await expect(ended).resolves.toBeInstanceOf(Overflow);
      expect(batches).toEqual([]);
      expect(onEnd).toHaveBeenCalledTimes(1);
    });

    it('reports a stop without an error, also one the listener makes from inside its batch', async () => {
      const q = queue();
      const batches: number[][] = [];
      const onEnd = jest.fn();
      q.listen({
        onEvents: (items) => {
          batches.push([...items]);
          q.stop();
        },
        onEnd,
      });
      q.push(1);
      await microtasks();
      q.push(2);
      await microtasks();
      expect(batches).toEqual([[1]]);
      expect(onEnd).toHaveBeenCalledTimes(1);
      expect(onEnd).toHaveBeenCalledWith(undefined);
    });

    it('reports a failure that a stop follows before the listener heard of it', async () => {
      const q = queue();
      const { batches, ended, listener } = recorder();
      q.listen(listener);
      q.push(1);
      q.fail(new Overflow('trimmed'));
      q.stop();
      await expect(ended).resolves.toThrow('trimmed');
      expect(batches).toEqual([]);
    });

    it('ends the queue with what a listener throws, instead of letting it reach the process', async () => {
      const onEnd = jest.fn();
      const q = queue(3, { onEnd });
      const thrown = new Error('listener bug');
      const ended = new Promise<Error | undefined>((resolve) => {
        q.listen({
          onEvents: () => {
            throw thrown;
          },
          onEnd: resolve,
        });
      });
      q.push(1);
      expect(await ended).toBe(thrown);
      expect(q.open).toBe(false);
      expect(onEnd).toHaveBeenCalledTimes(1);
    });

    it('tells a listener that arrives after the failure what the failure was', async () => {
      const q = queue();
      q.fail(new Overflow('too old'));
      const { ended, listener } = recorder();
      q.listen(listener);
      await expect(ended).resolves.toThrow('too old');
    });

    it("never runs the listener inside the producer's push", () => {
      const q = queue();
      const { batches, listener } = recorder();
      q.listen(listener);
      q.push(1);
      expect(batches).toEqual([]);
    });

    it('refuses a second listener and a listener after reading', async () => {
      const q = queue(3, { backlog: [1] });
      await q.next();
      expect(() => q.listen(recorder().listener)).toThrow(/either listened to once or iterated/);
      const fresh = queue();
      fresh.listen(recorder().listener);
      expect(() => fresh.listen(recorder().listener)).toThrow(/either listened to once or iterated/);
    });
  });
});
