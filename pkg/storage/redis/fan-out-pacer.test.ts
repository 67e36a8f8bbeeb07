import { FanOutPacer } from './fan-out-pacer';

/** A pacer on a clock the fan-out advances by hand, recording the pauses it asks for. */
function pacedBy(share: number, minPauseMs: number) {
  let clock = 0;
  const pauses: number[] = [];
  const pacer = new FanOutPacer({
    share,
    minPauseMs,
    now: () => clock,
    pause: (ms) => {
      pauses.push(ms);
      return Promise.resolve();
    },
  });
  return {
    pacer,
    pauses,
    advance: (ms: number) => {
      clock += ms;
    },
  };
}

describe('FanOutPacer', () => {
  it('pauses so that the fan-out takes its share of the time: twice its duration for a third', async () => {
    const { pacer, pauses, advance } = pacedBy(1 / 3, 1);
    await pacer.run(() => advance(9));
    expect(pauses).toHaveLength(1);
    expect(pauses[0]).toBeCloseTo(18);
  });

  it('counts the deliveries the fan-out queued as microtasks', async () => {
    const { pacer, pauses, advance } = pacedBy(0.5, 1);
    await pacer.run(() => {
      advance(2);
      queueMicrotask(() => advance(8));
    });
    expect(pauses).toEqual([10]);
  });

  it('does not pause after a fan-out too cheap to matter', async () => {
    const { pacer, pauses, advance } = pacedBy(1 / 3, 1);
    await pacer.run(() => advance(0.2));
    expect(pauses).toEqual([]);
  });
});
