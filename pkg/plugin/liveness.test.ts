import { LivenessCheck } from './liveness';

describe('LivenessCheck', () => {
  it('is alive once the worker answers the ping, and pings again for the next check', async () => {
    let pings = 0;
    const liveness: LivenessCheck = new LivenessCheck(() => {
      pings++;
      setImmediate(() => liveness.answered());
    }, 60_000);
    expect(await liveness.check()).toBe(true);
    expect(await liveness.check()).toBe(true);
    expect(pings).toBe(2);
  });

  it('is not alive when no answer comes within the bound; checks under way share one ping', async () => {
    let pings = 0;
    const liveness = new LivenessCheck(() => pings++, 20);
    const [first, second] = await Promise.all([liveness.check(), liveness.check()]);
    expect([first, second, pings]).toEqual([false, false, 1]);
  });

  it('counts an answer that arrived while this thread was blocked past the bound', async () => {
    // The answer is due with the bound; the thread is then busy past both, so the two are ready at once and the
    // bound's timer (set first) runs first: the verdict must still see the answer.
    const liveness: LivenessCheck = new LivenessCheck(() => setTimeout(() => liveness.answered(), 10), 10);
    const verdict = liveness.check();
    const until = Date.now() + 50;
    while (Date.now() < until);
    expect(await verdict).toBe(true);
  });

  it('ignores an answer that comes after the bound', async () => {
    const liveness = new LivenessCheck(() => undefined, 10);
    expect(await liveness.check()).toBe(false);
    liveness.answered();
    const late = liveness.check();
    expect(await late).toBe(false);
  });
});
