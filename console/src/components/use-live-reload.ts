import { useEffect, useState } from 'preact/hooks';
import { openWatch } from '../api/watch';

/** Changes come in bursts: what is shown is read again once they settle. */
const SETTLE_MS = 250;

/**
 * Keeps a list live: watches `collection` (narrowed by the selectors) from the
 * `resourceVersion` it was read at, and calls `reload` after changes. Answers
 * whether the watch is still open (the server ends watches after a while).
 */
export function useLiveReload(
  collection: string,
  resourceVersion: string | undefined,
  reload: () => void,
  selectors: { labelSelector?: string; fieldSelector?: string } = {},
): boolean {
  const [live, setLive] = useState(true);
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
  }, [collection, resourceVersion, labelSelector, fieldSelector]);
  return live;
}
