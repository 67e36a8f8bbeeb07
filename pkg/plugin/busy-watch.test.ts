import { BusyWatch, utilizationTrusted } from './busy-watch';

const busy = { utilization: 0.97, requests: false, elapsedMs: 1000 };

describe('BusyWatch', () => {
  it('reports a thread busy with no request for the limit, once', () => {
    const watch = new BusyWatch(3000);
    expect(watch.add(busy)).toBeUndefined();
    expect(watch.add(busy)).toBeUndefined();
    expect(watch.add(busy)).toBe(
      'the plugin kept its thread busy (over 80% of the time) for 3s with no request under way; its worker was stopped',
    );
    expect(watch.add(busy)).toBeUndefined();
  });

  it('starts counting again after an idle sample or one with requests', () => {
    const watch = new BusyWatch(3000);
    for (let i = 0; i < 10; i++) {
      expect(watch.add(busy)).toBeUndefined();
      expect(watch.add(busy)).toBeUndefined();
      expect(watch.add(i % 2 ? { ...busy, utilization: 0.5 } : { ...busy, requests: true })).toBeUndefined();
    }
  });
});

describe('utilizationTrusted', () => {
  it('distrusts the utilisation under a sampling profiler only', () => {
    expect(utilizationTrusted([])).toBe(true);
    expect(utilizationTrusted(['--inspect', '--max-old-space-size=512'])).toBe(true);
    expect(utilizationTrusted(['--cpu-prof-dir', '/tmp/p', '--cpu-prof'])).toBe(false);
    expect(utilizationTrusted(['--prof'])).toBe(false);
  });
});
