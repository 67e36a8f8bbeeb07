import { PendingCalls } from './pending-calls';

describe('PendingCalls', () => {
  afterEach(() => jest.useRealTimers());

  it('gives each call its own id across kinds and settles the call an answer names', async () => {
    const calls = new PendingCalls();
    const sent: number[] = [];
    const first = calls.open<string>((id) => sent.push(id));
    const second = calls.open<number>((id) => sent.push(id), { ms: 1000, error: () => new Error('late') });
    expect(new Set(sent).size).toBe(2);
    expect(calls.size).toBe(2);
    expect(calls.settle(sent[1], { value: 7 })).toBe(true);
    expect(calls.settle(sent[0], { error: new Error('refused') })).toBe(true);
    await expect(second).resolves.toBe(7);
    await expect(first).rejects.toThrow('refused');
    expect(calls.size).toBe(0);
  });

  it('ignores an answer for a call already settled or never opened', async () => {
    const calls = new PendingCalls();
    let id = 0;
    const call = calls.open<string>((given) => (id = given));
    expect(calls.settle(id, { value: 'first' })).toBe(true);
    expect(calls.settle(id, { value: 'second' })).toBe(false);
    expect(calls.settle(id + 100, { value: 'stray' })).toBe(false);
    await expect(call).resolves.toBe('first');
  });

  it('gives up a call after its timeout, drops it, and ignores its late answer', async () => {
    jest.useFakeTimers();
    const calls = new PendingCalls();
    let id = 0;
    const call = calls.open<string>((given) => (id = given), { ms: 500, error: () => new Error('no answer') });
    const outcome = call.then(
      () => 'answered',
      (err: Error) => err.message,
    );
    jest.advanceTimersByTime(499);
    expect(calls.size).toBe(1);
    jest.advanceTimersByTime(1);
    expect(await outcome).toBe('no answer');
    expect(calls.size).toBe(0);
    expect(calls.settle(id, { value: 'late' })).toBe(false);
  });

  it('clears the timer of a call answered in time', () => {
    jest.useFakeTimers();
    const calls = new PendingCalls();
    let id = 0;
    void calls.open<string>((given) => (id = given), { ms: 500, error: () => new Error('no answer') });
    expect(jest.getTimerCount()).toBe(1);
    calls.settle(id, { value: 'ok' });
    expect(jest.getTimerCount()).toBe(0);
  });
});
