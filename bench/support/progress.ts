import { SingleBar, Presets } from 'cli-progress';

/** How often the bar is redrawn; operations only bump a counter, so progress costs them nothing measurable. */
const REDRAW_INTERVAL_MS = 200;

/** A counter that work bumps as it goes; a progress bar reads it. */
export interface ProgressCounter {
  done: number;
}

/**
 * Runs `work` with a progress bar on stderr (drawn only on a terminal),
 * labelled `label`, that follows `counter.done` up to `total`.
 *
 * @example await withProgress('loading', 100_000, (counter) => load(counter));
 */
export async function withProgress<T>(
  label: string,
  total: number,
  work: (counter: ProgressCounter) => Promise<T>,
): Promise<T> {
  const counter: ProgressCounter = { done: 0 };
  const bar = new SingleBar(
    {
      format: `${label.padEnd(40)} [{bar}] {value}/{total} {percentage}% {duration}s`,
      hideCursor: true,
      clearOnComplete: true,
    },
    Presets.shades_classic,
  );
  bar.start(total, 0);
  const timer = setInterval(() => bar.update(counter.done), REDRAW_INTERVAL_MS);
  try {
    return await work(counter);
  } finally {
    clearInterval(timer);
    bar.update(counter.done);
    bar.stop();
  }
}
