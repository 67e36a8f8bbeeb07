import { waitFor } from '../../pkg/util/wait-for';
import { withProgress } from '../support/progress';

/** Lets `ms` pass while showing progress as `label` (the drill's load runs meanwhile). */
export async function loadFor(label: string, ms: number): Promise<void> {
  const start = Date.now();
  await withProgress(label, ms, (counter) =>
    waitFor(
      () => {
        counter.done = Math.min(ms, Date.now() - start);
        return Date.now() - start >= ms;
      },
      { timeoutMs: ms + 1_000, intervalMs: 100, what: label },
    ),
  );
}
