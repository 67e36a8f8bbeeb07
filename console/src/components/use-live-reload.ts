import { useEffect, useState } from 'preact/hooks';
import { openWatch } from '../api/watch';

/** Changes come in bursts: what is shown is read again once they settle. */
const SETTLE_MS = 250;

/**
 * Keeps a list live: watches `collection` (narrowed by the selectors) from the
 * `resourceVersion` it was read at, and calls `reload` after changes. Answers
 * whether the watch is open (`live`; the server ends watches after a while, or
 * the connection drops: the list is then paused) and what resumes it (reads
 * the list again and watches from there).
 */
export function useLiveReload(
  collection: string,
  resourceVersion: string | undefined,
  reload: () => void,
  selectors: { labelSelector?: string; fieldSelector?: string } = {},
): { live: boolean; resume: () => void } {
  const [live, setLive] = useState(true);
  const [round, setRound] = useState(0);
  const { labelSelector, fieldSelector } = selectors;
  useEffect(() => {
    if (!resourceVersion) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const changed = () => {
      clearTimeout(timer);
      timer = setTimeout(reload, SETTLE_MS);
    };
    const stop = openWatch(collection, { resourceVersion, labelSelector, fieldSelector }, changed, () =>
      setLive(false),
    );
    setLive(true);
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, [collection, resourceVersion, labelSelector, fieldSelector, round]);
  const resume = () => {
    setRound((r) => r + 1);
    reload();
  };
  return { live, resume };
}
