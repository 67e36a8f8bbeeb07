import { describe, expect, it } from 'vitest';
import { parseMetrics } from './prometheus';
import { ratesBetween, statsOf } from './server-stats';

const scrape = (ok: number, failed: number, watchers: number) => `# HELP svc_apiserver_requests_total Requests.
# TYPE svc_apiserver_requests_total counter
svc_apiserver_requests_total{verb="get",group="",resource="users",code="200"} ${ok}
svc_apiserver_requests_total{verb="list",group="a,b",resource="x",code="503"} ${failed}
svc_apiserver_watchers{group="",resource="roles"} ${watchers}
svc_apiserver_watchers{group="x",resource="y"} 1
process_resident_memory_bytes 104857600
svc_storage_used_memory_bytes 3145728
not a metric line
`;

describe('parseMetrics', () => {
  it('reads names, labels (commas inside values too) and values, skipping comments', () => {
    const samples = parseMetrics(scrape(10, 2, 3));
    expect(samples).toHaveLength(6);
    expect(samples[1]).toEqual({
      name: 'svc_apiserver_requests_total',
      labels: { verb: 'list', group: 'a,b', resource: 'x', code: '503' },
      value: 2,
    });
  });
});

describe('the dashboard figures', () => {
  it("are rates between two scrapes: requests per second, the 5xx share, watches, memory and the store's memory", () => {
    const before = statsOf(parseMetrics(scrape(10, 2, 3)), 100);
    const after = statsOf(parseMetrics(scrape(28, 4, 5)), 102);
    expect(ratesBetween(before, after)).toEqual({
      at: 102,
      requestsPerSecond: 10,
      errorPercent: 10,
      watchers: 6,
      memoryMiB: 100,
      storeMemoryMiB: 3,
    });
  });

  it("leave the store's memory out when the server exports none (a file or memory store)", () => {
    const text = scrape(10, 2, 3).replace(/^svc_storage_used_memory_bytes.*$/m, '');
    const stats = statsOf(parseMetrics(text), 100);
    expect(stats.storeMemoryBytes).toBeUndefined();
    expect(ratesBetween(stats, stats).storeMemoryMiB).toBeUndefined();
  });

  it('never go negative when the server restarted and its counters began again', () => {
    const before = statsOf(parseMetrics(scrape(1000, 50, 0)), 100);
    const after = statsOf(parseMetrics(scrape(3, 0, 0)), 101);
    expect(ratesBetween(before, after).requestsPerSecond).toBe(0);
    expect(ratesBetween(before, after).errorPercent).toBe(0);
  });
});
