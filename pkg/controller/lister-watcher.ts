import type { ApiObject } from '../api/object';
import type { ApiClient } from '../client/api-client';
import type { ResourceRef } from '../client/resource';
import type { ListResult } from '../client/types';
import type { WatchStream } from '../client/watch-stream';

/** Which objects of a resource an informer follows, e.g. `{labelSelector: 'app=web'}`. */
export interface Selectors {
  labelSelector?: string;
  fieldSelector?: string;
}

/** What an informer reads through: a list, and a watch from a `resourceVersion`. */
export interface ListerWatcher<T extends ApiObject = ApiObject> {
  list(signal: AbortSignal): Promise<ListResult<T>>;
  watch(resourceVersion: string, signal: AbortSignal): Promise<WatchStream<T>>;
}

/** Tuning of the watch an informer opens. */
export interface WatchSettings {
  /** Ask the server to end each watch after this long (the informer resumes); default the server's timeout. */
  timeoutSeconds?: number;
}

/**
 * Lists and watches one resource over the API, with bookmarks on so that the
 * informer's `resourceVersion` stays fresh when nothing it selects changes.
 */
export function listerWatcherFor<T extends ApiObject = ApiObject>(
  client: ApiClient,
  res: ResourceRef,
  selectors: Selectors = {},
  settings: WatchSettings = {},
): ListerWatcher<T> {
  return {
    list: (signal) => client.list<T>(res, { ...selectors, signal }),
    watch: (resourceVersion, signal) =>
      client.watch<T>(res, {
        ...selectors,
        resourceVersion,
        signal,
        allowWatchBookmarks: true,
        timeoutSeconds: settings.timeoutSeconds,
      }),
  };
}
