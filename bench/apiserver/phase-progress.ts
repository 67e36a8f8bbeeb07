import { SingleBar } from 'cli-progress';

/** Updates a progress bar: how far the work is, and optional text shown beside it. */
export type ProgressUpdate = (done: number, note?: string) => void;

/** Where the bar redraws itself on a terminal, and prints a line this often otherwise. */
const NOT_TTY_EVERY_MS = 5_000;

/**
 * Runs `work` with a progress bar on stderr labelled `label` that counts to
 * `total` (a terminal gets a live bar; a log gets a line every few seconds).
 * Unlike ../support/progress.ts it shows a note beside the bar (e.g. events
 * received while writing) and reports progress when stderr is not a terminal.
 *
 * @example await withPhaseProgress('loading 10000 persons', 10_000, (update) => load(update));
 */
export async function withPhaseProgress<T>(
  label: string,
  total: number,
  work: (update: ProgressUpdate) => Promise<T>,
): Promise<T> {
  const bar = new SingleBar({
    format: `${label.padEnd(44)} [{bar}] {value}/{total} {note}`,
    barsize: 30,
    hideCursor: true,
    noTTYOutput: true,
    notTTYSchedule: NOT_TTY_EVERY_MS,
    etaBuffer: 50,
  });
  bar.start(total, 0, { note: '' });
  try {
    return await work((done, note) => bar.update(done, note === undefined ? undefined : { note }));
  } finally {
    bar.stop();
  }
}
