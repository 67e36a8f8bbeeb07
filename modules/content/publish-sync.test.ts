import { ExpiredError, NetworkError } from '../../pkg/client/errors';
import type { WatchEvent, WatchOptions } from '../../pkg/client/types';
import type { PluginContext } from './plugin-context';
import type { Post } from './post-model';
import { syncPublishStatus, WATCH_TIMEOUT_SECONDS } from './publish-sync';

/** One watch the fake client answers: its events, then how it ends (quietly, or with an error). */
interface ScriptedWatch {
  events: WatchEvent<Post>[];
  endsWith?: Error;
}

const bookmark = (resourceVersion: string): WatchEvent<Post> => ({
  type: 'BOOKMARK',
  object: { metadata: { resourceVersion } } as Post,
});

/**
 * A plugin context whose client lists no posts (at revision 1, then 2, …) and answers the scripted watches in turn;
 * once they are used up, a watch waits for the abort. `done` resolves when the last scripted watch has ended.
 */
function fakeContext(watches: ScriptedWatch[]) {
  const logged: Record<'debug' | 'info' | 'warn' | 'error', string[]> = { debug: [], info: [], warn: [], error: [] };
  const watchOptions: WatchOptions[] = [];
  let lists = 0;
  let allUsed!: () => void;
  const done = new Promise<void>((resolve) => (allUsed = resolve));
  const client = {
    list: async () => ({ items: [], resourceVersion: String(++lists) }),
    watch: async (_res: unknown, options: WatchOptions) => {
      watchOptions.push(options);
      const script = watches[watchOptions.length - 1];
      if (!script) allUsed();
      return (async function* () {
        if (!script) {
          const signal = options.signal!;
          if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve));
          return;
        }
        yield* script.events;
        if (script.endsWith) throw script.endsWith;
      })();
    },
  };
  const log = (level: keyof typeof logged) => (message: string) => void logged[level].push(message);
  const ctx = {
    client,
    log: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
  } as unknown as PluginContext;
  return { ctx, logged, watchOptions, lists: () => lists, done };
}

describe('syncPublishStatus', () => {
  it('asks for bookmarks and a timeout of its own, and resumes a watch the server ends without a warning', async () => {
    const fake = fakeContext([{ events: [bookmark('5')] }, { events: [] }, { events: [bookmark('9')] }]);
    const stop = new AbortController();
    const sync = syncPublishStatus(fake.ctx, stop.signal);
    await fake.done;
    stop.abort();
    await sync;
    expect(fake.lists()).toBe(1);
    expect(fake.watchOptions.map((o) => o.resourceVersion)).toEqual(['1', '5', '5', '9']);
    for (const options of fake.watchOptions) {
      expect(options).toMatchObject({ allowWatchBookmarks: true, timeoutSeconds: WATCH_TIMEOUT_SECONDS });
    }
    expect(fake.logged.warn).toEqual([]);
    expect(fake.logged.error).toEqual([]);
  });

  it('lists again at once, at info, when the watch has expired (410)', async () => {
    const expired = new ExpiredError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      code: 410,
      reason: 'Expired',
      status: 'Failure',
    });
    const fake = fakeContext([{ events: [], endsWith: expired }]);
    const stop = new AbortController();
    const sync = syncPublishStatus(fake.ctx, stop.signal);
    await fake.done;
    stop.abort();
    await sync;
    expect(fake.lists()).toBe(2);
    expect(fake.watchOptions.map((o) => o.resourceVersion)).toEqual(['1', '2']);
    expect(fake.logged.info).toEqual(['post watch too far behind; listing again']);
    expect(fake.logged.warn).toEqual([]);
  });

  it('warns when the watch breaks off, then lists again', async () => {
    const fake = fakeContext([{ events: [], endsWith: new NetworkError('watch posts broke off: other side closed') }]);
    const stop = new AbortController();
    const sync = syncPublishStatus(fake.ctx, stop.signal);
    await fake.done;
    stop.abort();
    await sync;
    expect(fake.logged.warn).toEqual(['post status sync failed; starting over']);
    expect(fake.lists()).toBe(2);
  });
});
