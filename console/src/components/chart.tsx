import { useEffect, useRef } from 'preact/hooks';
import type { DrawnChart } from './uplot-chart';

let loading: Promise<typeof import('./uplot-chart')> | undefined;
/** uPlot, fetched once, the first time a chart is shown. */
const loadCharts = () => (loading ??= import('./uplot-chart'));

/**
 * A small line chart (uPlot, loaded on demand) with its latest value as text:
 * the caption is what assistive technology reads; the drawing is decoration.
 */
export function Chart(props: { title: string; value: string; xs: number[]; ys: number[]; color: string }) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<DrawnChart | undefined>(undefined);
  const latest = useRef(props);
  latest.current = props;
  useEffect(() => {
    let gone = false;
    loadCharts().then(
      ({ drawChart }) => {
        if (gone || !host.current) return;
        chart.current = drawChart(host.current, latest.current.title, latest.current.color);
        chart.current.update(latest.current.xs, latest.current.ys);
      },
      (err: unknown) => console.warn('the charts could not load; the figures stay:', err),
    );
    return () => {
      gone = true;
      chart.current?.destroy();
    };
  }, []);
  useEffect(() => chart.current?.update(props.xs, props.ys), [props.xs, props.ys]);
  return (
    <figure class="chart card">
      <figcaption>
        {props.title}: <strong>{props.value}</strong>
      </figcaption>
      <div ref={host} aria-hidden="true" />
    </figure>
  );
}
