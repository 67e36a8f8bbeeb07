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

/**
 * The super administrator's dashboard: requests per second, the share of
 * server errors, open watches, the apiserver's memory and Redis' (when the
 * store is Redis), from `/metrics` read every 2 s while the page is open; and
 * the plugins' phases (live).
 */
export function DashboardPage() {
  const { points, error } = useServerRates();
  const series = (pick: (r: Rates) => number) => points.map(pick);
  const xs = series((p) => p.at);
  const last = points[points.length - 1];
  const figure = (value: number | undefined, digits: number, unit = '') =>
    value === undefined ? '…' : `${value.toFixed(digits)}${unit}`;
  return (
    <>
      <h1>Dashboard</h1>
      <p class="muted">This apiserver, read from its /metrics every 2 seconds while this page is open.</p>
      <ErrorBox error={error} />
      <div class="charts">
        <Chart
          title="Requests per second"
          value={figure(last?.requestsPerSecond, 1)}
          xs={xs}
          ys={series((p) => p.requestsPerSecond)}
          color="#0b57d0"
        />
        <Chart
          title="Server errors (5xx)"
          value={figure(last?.errorPercent, 1, ' %')}
          xs={xs}
          ys={series((p) => p.errorPercent)}
          color="#b3261e"
        />
        <Chart
          title="Open watches"
          value={figure(last?.watchers, 0)}
          xs={xs}
          ys={series((p) => p.watchers)}
          color="#0d652d"
        />
        <Chart
          title="Apiserver memory (resident)"
          value={figure(last?.memoryMiB, 0, ' MiB')}
          xs={xs}
          ys={series((p) => p.memoryMiB)}
          color="#8430ce"
        />
        {last?.storeMemoryMiB !== undefined && (
          <Chart
            title="Redis memory (used)"
            value={figure(last.storeMemoryMiB, 1, ' MiB')}
            xs={xs}
            ys={series((p) => p.storeMemoryMiB ?? 0)}
            color="#b06000"
          />
        )}
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
