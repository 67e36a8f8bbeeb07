import { BLOCKED_AFTER_MS, BlockedMemoryWatch } from './blocked-memory-watch';

const MiB = 1024 * 1024;

function setup(limitMb = 64) {
  const clock = { rss: 500 * MiB, now: 1000 };
  const reasons: string[] = [];
  const watch = new BlockedMemoryWatch(limitMb, (reason) => reasons.push(reason), {
    rss: () => clock.rss,
    now: () => clock.now,
  });
  return { clock, reasons, watch };
}

describe('BlockedMemoryWatch', () => {
  it("charges the process's growth to a worker whose reports are late, and stops it past its limit", () => {
    const { clock, reasons, watch } = setup();
    watch.reported(10 * MiB);
    clock.now += BLOCKED_AFTER_MS;
    clock.rss += 50 * MiB;
    watch.check();
    expect(reasons).toEqual([]);
    clock.rss += 10 * MiB;
    watch.check();
    expect(reasons).toEqual([
      'the plugin went past its memory limit of 64 MiB while its thread was blocked (it held 10 MiB, and the ' +
        'process grew by 60 MiB since); its worker was stopped',
    ]);
    clock.rss += 100 * MiB;
    watch.check();
    expect(reasons).toHaveLength(1);
  });

  it('charges nothing while the reports come in time, however much the process grows', () => {
    const { clock, reasons, watch } = setup();
    for (let i = 0; i < 10; i++) {
      watch.reported(10 * MiB);
      clock.now += BLOCKED_AFTER_MS - 1;
      clock.rss += 100 * MiB;
      watch.check();
    }
    expect(reasons).toEqual([]);
  });

  it('leaves a blocked worker alone while the process does not grow past its budget', () => {
    const { clock, reasons, watch } = setup();
    watch.reported(60 * MiB);
    clock.now += 60_000;
    clock.rss += 4 * MiB;
    watch.check();
    expect(reasons).toEqual([]);
  });

  it('does nothing once stopped', () => {
    const { clock, reasons, watch } = setup();
    watch.reported(0);
    watch.stop();
    clock.now += 60_000;
    clock.rss += 1000 * MiB;
    watch.check();
    expect(reasons).toEqual([]);
  });
});
