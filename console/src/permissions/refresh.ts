import { api, getIfChanged } from '../api/client';
import { ACCESS_REVIEWS, MY_PERMISSIONS } from '../api/paths';
import { openWatch } from '../api/watch';
import type { Permissions } from './permissions';

/**
 * Without a watch (the caller may not watch bindings and roles), how often
 * permissions are read again while the tab is visible: a conditional GET,
 * answered 304 without a body while nothing changed.
 */
export const POLL_MS = 3_000;
/** Changes often come in bursts (a role and its binding): one read after they settle. */
const SETTLE_MS = 200;
/** Pause before a watch the server ended is opened again. */
const RESUME_MS = 1000;

/**
 * What reads the caller's permissions: the first call resolves with them,
 * each next one with them only when they changed since (else undefined).
 */
export function permissionsReader(): () => Promise<Permissions | undefined> {
  let etag: string | undefined;
  return async () => {
    const read = await getIfChanged<Permissions>(MY_PERMISSIONS, etag);
    if (!read) return undefined;
    etag = read.etag;
    return read.value;
  };
}

/** Dispatched on `window` by a page that saw plugins change (the Plugins page): menus catch up at once. */
export const PLUGINS_CHANGED = 'svc:plugins-changed';

/**
 * Why a refresh runs: an `event` (the window got the focus or became visible,
 * a binding, role or plugin changed) or the `poll` of a user who may not watch.
 */
export type RefreshCause = 'event' | 'poll';

/**
 * Keeps the caller's permissions fresh: read again when the window gets the
 * focus or becomes visible, on every change of a binding or role the caller
 * may watch or of plugins, and every POLL_MS while the tab is visible when
 * they may not watch both. Returns what stops it.
 */
export function keepPermissionsFresh(refresh: (cause: RefreshCause) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onEvent = () => refresh('event');
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(onEvent, SETTLE_MS);
  };
  const onVisible = () => document.visibilityState === 'visible' && onEvent();
  window.addEventListener('focus', onEvent);
  window.addEventListener(PLUGINS_CHANGED, onEvent);
  document.addEventListener('visibilitychange', onVisible);
  const stops = ['rolebindings', 'roles'].map((resource) => watchChanges(resource, soon));
  const watchingAll = Promise.all(stops.map((s) => s.watching)).then((all) => !all.includes(false));
  const poll = setInterval(() => {
    if (document.visibilityState === 'visible') void watchingAll.then((all) => all || refresh('poll'));
  }, POLL_MS);
  return () => {
    clearTimeout(timer);
    clearInterval(poll);
    window.removeEventListener('focus', onEvent);
    window.removeEventListener(PLUGINS_CHANGED, onEvent);
    document.removeEventListener('visibilitychange', onVisible);
    for (const s of stops) s.stop();
  };
}

/** Whether the caller may watch a core collection, asked through an access review of themself. */
async function mayWatch(resource: string): Promise<boolean> {
  const review = await api<{ status?: { allowed?: boolean } }>('POST', ACCESS_REVIEWS, {
    body: { spec: { verb: 'watch', group: '', resource } },
  }).catch(() => undefined);
  return review?.status?.allowed === true;
}

/**
 * Watches a core collection when the caller may; resumes when the server ends
 * the watch. The first events (every current object) settle into one refresh.
 */
function watchChanges(resource: string, changed: () => void): { watching: Promise<boolean>; stop: () => void } {
  let stop = () => undefined as void;
  let stopped = false;
  const start = () => {
    stop = openWatch(`/api/v1alpha1/${resource}`, {}, changed, () => {
      if (!stopped) setTimeout(start, RESUME_MS);
    });
  };
  const watching = mayWatch(resource).then((allowed) => {
    if (allowed && !stopped) start();
    return allowed;
  });
  return {
    watching,
    stop: () => {
      stopped = true;
      stop();
    },
  };
}
