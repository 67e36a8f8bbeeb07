// Loaded on demand (a dynamic import) by the dashboard's charts: uPlot and its stylesheet are fetched only there.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** A drawn chart: give it new points, or remove it. */
export interface DrawnChart {
  update(xs: number[], ys: number[]): void;
  destroy(): void;
}

const WINDOW_SECONDS = 120;

function lastTwoMinutes(max: number | null): uPlot.Range.MinMax {
  const end = max ?? Date.now() / 1000;
  return [end - WINDOW_SECONDS, end];
}

/** A small line chart of one series over time in `host`, as wide as the host. */
export function drawChart(host: HTMLElement, label: string, color: string): DrawnChart {
  const width = () => Math.max(host.clientWidth, 240);
  const chart = new uPlot(
    {
      width: width(),
      height: 140,
      legend: { show: false },
      cursor: { show: false },
      // Always the last two minutes, also while there are few points (uPlot would spread one over years).
      scales: { x: { time: false, range: (_u, _min, max) => lastTwoMinutes(max) } },
      series: [{}, { label, stroke: color, width: 2, fill: `${color}22` }],
      axes: [
        // Seconds before the latest point, which reads better in a two-minute window than clock times.
        {
          stroke: 'currentColor',
          values: (u, ticks) => ticks.map((t) => `${Math.round(t - (u.scales.x.max ?? t))} s`),
        },
        { stroke: 'currentColor', size: 56 },
      ],
    },
    [[], []],
    host,
  );
  const onResize = () => chart.setSize({ width: width(), height: 140 });
  window.addEventListener('resize', onResize);
  return {
    update: (xs, ys) => chart.setData([xs, ys]),
    destroy: () => {
      window.removeEventListener('resize', onResize);
      chart.destroy();
    },
  };
}
