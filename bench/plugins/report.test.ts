import type { Comparison } from '../apiserver/throughput';
import type { LoadResult } from '../support/http-load';
import { cpuShareLine, indexRate, READ_ROUTE_GOAL_RATIO, routeTable, routeVerdict, startTable } from './report';

const run = (perSecond: number): LoadResult => ({
  requests: 1000,
  seconds: 1000 / perSecond,
  perSecond,
  latency: { count: 1000, p50: 1.5, p99: 4, max: 6 },
  errors: 0,
});
const comparison = (route: number, get: number): Comparison => ({
  label: 'GET, route vs generated',
  svc: { name: 'route', runs: [run(route)], median: run(route), cpu: { server: 120 } },
  baseline: { name: 'GET', runs: [run(get)], median: run(get), cpu: { server: 60 } },
  ratio: route / get,
});

describe('the route goal', () => {
  it('passes at half the GET throughput and above, and misses below', () => {
    expect(routeVerdict(0.5)).toBe('PASS');
    expect(routeVerdict(1.3)).toBe('PASS');
    expect(routeVerdict(0.49)).toBe('MISS');
  });

  it("judges a route reading through ctx.client against its own goal, 70% of the GET's", () => {
    expect(routeVerdict(0.69, READ_ROUTE_GOAL_RATIO)).toBe('MISS');
    expect(routeVerdict(0.7, READ_ROUTE_GOAL_RATIO)).toBe('PASS');
    expect(routeTable(comparison(7500, 10000), READ_ROUTE_GOAL_RATIO).split('\n')[2]).toMatch(/≥ 70%\s+PASS$/);
  });

  it('prints both throughputs, the ratio, the goal and the verdict', () => {
    const table = routeTable(comparison(4000, 10000));
    expect(table).toContain('4,000');
    expect(table).toContain('10,000');
    expect(table.split('\n')[2]).toMatch(/40%\s+1\.50 ms \/ 4\.00 ms\s+1\.50 ms \/ 4\.00 ms\s+≥ 50%\s+MISS$/);
  });
});

describe('the CPU share', () => {
  it("is the GET's server CPU per request over the route's, and says so when /proc gave none", () => {
    expect(cpuShareLine(comparison(4000, 10000))).toBe(
      'Server CPU per request (median runs, /proc): route 120 µs, GET 60 µs: a server bound by its CPU would ' +
        "answer the route at 50% of the GET's rate",
    );
    const unknown = { ...comparison(1, 1), svc: { ...comparison(1, 1).svc, cpu: {} } };
    expect(cpuShareLine(unknown)).toBe('Server CPU per request: not available (/proc)');
  });
});

describe('the start report', () => {
  const baseline = { objects: 0, times: { healthy: 500, started: 900, served: 950 } };
  const measured = { objects: 10000, times: { healthy: 480, started: 1000, served: 3000 } };

  it('prints the start over objects beside the start over none, and the difference', () => {
    const lines = startTable(baseline, measured).split('\n');
    expect(lines[2]).toMatch(/^0 objects \(baseline\)\s+0\.50 s\s+0\.90 s\s+0\.95 s$/);
    expect(lines[3]).toMatch(/^10000 objects\s+0\.48 s\s+1\.00 s\s+3\.00 s$/);
    expect(lines[4]).toMatch(/^difference\s+-0\.02 s\s+\+0\.10 s\s+\+2\.05 s$/);
  });

  it('gives the index rate from the time the objects added until the API serves, none without one or an index', () => {
    expect(indexRate(baseline, measured, 2)).toBe(
      '4,878 objects/s per index (2 indexes built side by side, from the time the objects added)',
    );
    expect(indexRate(baseline, measured, 0)).toBe('—');
    expect(indexRate(baseline, { objects: 5, times: { healthy: 1, started: 2, served: 900 } }, 2)).toBe('—');
  });
});
