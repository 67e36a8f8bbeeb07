import { useEffect, useState } from 'preact/hooks';
import { api, getText } from '../api/client';
import { asApiError, type ApiError } from '../api/errors';
import { PLUGINS } from '../api/paths';
import { parseMetrics } from '../api/prometheus';
import { ratesBetween, statsOf, type Rates, type ServerStats } from '../api/server-stats';
import { Chart } from '../components/chart';
import { ErrorBox } from '../components/error-box';
import { useAsync } from '../components/use-async';
import { useLiveReload } from '../components/use-live-reload';

/** How often `/metrics` is read while the page is open, and how many points each chart keeps (two minutes). */
const SCRAPE_MS = 2_000;
const POINTS = 60;

/** One chart: what it shows, how its latest value reads, its colour; `optional`, shown only once it has a figure. */
interface ChartSpec {
  title: string;
  pick: (r: Rates) => number | undefined;
  digits: number;
  unit?: string;
  color: string;
  optional?: boolean;
}

const CHARTS: ChartSpec[] = [
  { title: 'Requests per second', pick: (r) => r.requestsPerSecond, digits: 1, color: '#0b57d0' },
  { title: 'Server errors (5xx)', pick: (r) => r.errorPercent, digits: 1, unit: ' %', color: '#b3261e' },
  { title: 'Open watches', pick: (r) => r.watchers, digits: 0, color: '#0d652d' },
  { title: 'Apiserver memory (resident)', pick: (r) => r.memoryMiB, digits: 0, unit: ' MiB', color: '#8430ce' },
  // Only a Redis store gives this figure.
  {
    title: 'Redis memory (used)',
    pick: (r) => r.storeMemoryMiB,
    digits: 1,
    unit: ' MiB',
    color: '#b06000',
    optional: true,
  },
];

/**
 * The super administrator's dashboard: requests per second, the share of
 * server errors, open watches, the apiserver's memory and Redis' (when the
 * store is Redis), from `/metrics` read every 2 s while the page is open; and
 * the plugins' phases (live).
 */
export function DashboardPage() {
  const { points, error } = useServerRates();
  const xs = points.map((p) => p.at);
  const last = points[points.length - 1];
  const shown = CHARTS.filter((c) => !c.optional || (last !== undefined && c.pick(last) !== undefined));
  return (
    <>
      <h1>Dashboard</h1>
      <p class="muted">This apiserver, read from its /metrics every 2 seconds while this page is open.</p>
      <ErrorBox error={error} />
      <div class="charts">
        {shown.map((c) => {
          const value = last && c.pick(last);
          return (
            <Chart
              key={c.title}
              title={c.title}
              value={value === undefined ? '…' : `${value.toFixed(c.digits)}${c.unit ?? ''}`}
              xs={xs}
              ys={points.map((p) => c.pick(p) ?? 0)}
              color={c.color}
            />
          );
        })}
      </div>
      <PluginPhases />
    </>
  );
}

/** The rates between consecutive scrapes of `/metrics`, the last POINTS of them. */
function useServerRates(): { points: Rates[]; error?: ApiError } {
  const [points, setPoints] = useState<Rates[]>([]);
  const [error, setError] = useState<ApiError | undefined>();
  useEffect(() => {
    let previous: ServerStats | undefined;
    const scrape = () =>
      getText('/metrics').then(
        (text) => {
          const stats = statsOf(parseMetrics(text), Date.now() / 1000);
          if (previous) {
            const point = ratesBetween(previous, stats);
            setPoints((list) => [...list.slice(1 - POINTS), point]);
          }
          previous = stats;
          setError(undefined);
        },
        (err: unknown) => setError(asApiError(err)),
      );
    void scrape();
    const timer = setInterval(() => void scrape(), SCRAPE_MS);
    return () => clearInterval(timer);
  }, []);
  return { points, error };
}

interface Plugin {
  metadata: { name: string };
  spec: { displayName?: string };
  status?: { phase?: string };
}

/** Each plugin and its phase, following changes. */
function PluginPhases() {
  const plugins = useAsync(() => api<{ items: Plugin[]; metadata: { resourceVersion?: string } }>('GET', PLUGINS), []);
  useLiveReload(PLUGINS, plugins.value?.metadata, plugins.reload);
  return (
    <section aria-labelledby="plugin-phases">
      <h2 id="plugin-phases">Plugins</h2>
      <ErrorBox error={plugins.error} />
      <ul class="phases">
        {plugins.value?.items.map((p) => (
          <li key={p.metadata.name}>
            {p.spec.displayName ?? p.metadata.name}: <strong>{p.status?.phase ?? 'PENDING'}</strong>
          </li>
        ))}
      </ul>
    </section>
  );
}
