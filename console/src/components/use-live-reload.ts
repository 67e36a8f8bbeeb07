import { useEffect, useRef, useState } from 'preact/hooks';
import { openWatch } from '../api/watch';

/**
 * Changes come in bursts and in streams: the list is read again this long after the first change of a quiet spell
 * (the burst's other changes ride along), and while changes keep coming, at most once per this much time.
 */
export const RELOAD_MS = 250;

/**
 * Calls `reload` after changes, at most once per `ms`: the first change of a
 * quiet spell schedules it, and the changes until then are read with it.
 * (Waiting for the changes to stop instead would never read a list that
 * changes steadily.) Answers what each change calls, and what cancels.
 */
export function throttledReload(reload: () => void, ms = RELOAD_MS): { changed: () => void; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    changed: () => {
      timer ??= setTimeout(() => {
        timer = undefined;
        reload();
      }, ms);
    },
    cancel: () => clearTimeout(timer),
  };
}

/**
 * Keeps a list live: watches `collection` (narrowed by the selectors) from the
 * resourceVersion of `listed` (the list's metadata as last read), and calls
 * `reload` after changes. One watch serves the reloads it causes; a new one
 * starts from the first read after the collection or selectors change, or
 * after a resume. Answers whether the watch is open (`live`; the server ends
 * watches after a while, or the connection drops: the list is then paused)
 * and what resumes it (reads the list again and watches from there).
 */
export function useLiveReload(
  collection: string,
  listed: { resourceVersion?: string } | undefined,
  reload: () => void,
  selectors: { labelSelector?: string; fieldSelector?: string } = {},
): { live: boolean; resume: () => void } {
  const [live, setLive] = useState(true);
  const [round, setRound] = useState(0);
  const { labelSelector, fieldSelector } = selectors;
  const key = JSON.stringify([collection, labelSelector ?? '', fieldSelector ?? '', round]);
  // The list as read before the key changed: a watch for the new key starts from a read made after.
  const seen = useRef<{ key?: string; stale?: object }>({});
  if (seen.current.key !== key) seen.current = { key, stale: seen.current.key === undefined ? undefined : listed };
  const fresh = listed && listed !== seen.current.stale ? listed.resourceVersion : undefined;
  const [from, setFrom] = useState<{ key: string; resourceVersion: string } | undefined>();
  useEffect(() => {
    if (fresh && from?.key !== key) setFrom({ key, resourceVersion: fresh });
  }, [fresh, key]);
  const start = from?.key === key ? from.resourceVersion : undefined;
  const read = useRef(reload);
  read.current = reload;
  useEffect(() => {
    if (!start) return undefined;
    const { changed, cancel } = throttledReload(() => read.current());
    const stop = openWatch(collection, { resourceVersion: start, labelSelector, fieldSelector }, changed, () =>
      setLive(false),
    );
    setLive(true);
    return () => {
      cancel();
      stop();
    };
  }, [key, start]);
  const resume = () => {
    setRound((r) => r + 1);
    reload();
  };
  return { live, resume };
}
