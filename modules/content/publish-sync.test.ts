import { ApiError, NetworkError } from '../../pkg/client/errors';
import type { WatchEvent, WatchOptions } from '../../pkg/client/types';
import { waitFor } from '../../pkg/util/wait-for';
import { holdsFor } from '../../test/support/wait-for';
import type { PluginContext } from './plugin-context';
import type { Post, PostStatus } from './post-model';
import { syncPublishStatus, WATCH_TIMEOUT_SECONDS } from './publish-sync';

// The list, watch, relist and backoff come from the controller runtime's informer (its own tests); these check what
// the sync does with the posts it is told of, and what it asks the informer for.

const post = (
  name: string,
  resourceVersion: string,
  publish: boolean,
  status?: PostStatus,
  deleting = false,
): Post => ({
  apiVersion: 'content.svc.run/v1alpha1',
  kind: 'Post',
  metadata: { name, resourceVersion, ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) },
  spec: { title: name, slug: name, owner: 'ada', publish },
  ...(status ? { status } : {}),
});

/** One status write the sync made: the post's name and the merge patch. */
interface Write {
  name: string;
  body: { status: { phase: string; publishTime: string | null }; metadata?: { resourceVersion: string } };
}

/**
 * A plugin context whose client lists `listed`, then answers one watch with `events` and holds it open until the
 * abort. `failWrites` makes the first writes of a post fail with that error.
 */
function fakeContext(listed: Post[], events: WatchEvent<Post>[] = [], failWrites: Record<string, Error[]> = {}) {
  const logged: Record<'debug' | 'info' | 'warn' | 'error', string[]> = { debug: [], info: [], warn: [], error: [] };
  const watchOptions: WatchOptions[] = [];
  const writes: Write[] = [];
  const asked: Record<string, number> = {};
  const client = {
    list: async () => ({ items: listed, resourceVersion: '10' }),
    watch: async (_res: unknown, options: WatchOptions) => {
      watchOptions.push(options);
      return (async function* () {
        if (watchOptions.length === 1) yield* events;
        const signal = options.signal!;
        if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve));
      })();
    },
    request: async ({ path, body }: { path: string; body: Write['body'] }) => {
      const name = /\/posts\/([^/]+)\/status$/.exec(path)?.[1] ?? path;
      asked[name] = (asked[name] ?? 0) + 1;
      const failure = failWrites[name]?.shift();
      if (failure) throw failure;
      writes.push({ name, body });
      return {};
    },
  };
  const log = (level: keyof typeof logged) => (message: string) => void logged[level].push(message);
  const ctx = {
    client,
    log: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
  } as unknown as PluginContext;
  return { ctx, logged, watchOptions, writes, asked };
}

/** Runs the sync until `until` holds, then `then`, then stops it and waits for it to end. */
async function runUntil(
  fake: ReturnType<typeof fakeContext>,
  until: () => boolean,
  what: string,
  then?: () => Promise<void>,
): Promise<void> {
  const stop = new AbortController();
  const sync = syncPublishStatus(fake.ctx, stop.signal);
  try {
    await waitFor(until, { what, timeoutMs: 5_000 });
    await then?.();
  } finally {
    stop.abort();
    await sync;
  }
}

describe('syncPublishStatus', () => {
  it('writes each listed post the status its spec.publish asks for, only at the version it judged', async () => {
    const fake = fakeContext([
      post('fresh', '3', false),
      post('to-publish', '4', true, { phase: 'DRAFT' }),
      post('to-unpublish', '5', false, { phase: 'PUBLISHED', publishTime: '2026-01-01T00:00:00Z' }),
      post('in-line', '6', true, { phase: 'PUBLISHED', publishTime: '2026-01-01T00:00:00Z' }),
      post('under-review', '7', false, { phase: 'PENDING_REVIEW' }),
      post('being-deleted', '8', true, { phase: 'DRAFT' }, true),
    ]);
    await runUntil(fake, () => fake.writes.length === 3, 'three status writes');
    const byName = Object.fromEntries(fake.writes.map((w) => [w.name, w.body]));
    expect(Object.keys(byName).sort()).toEqual(['fresh', 'to-publish', 'to-unpublish']);
    expect(byName.fresh).toEqual({ status: { phase: 'DRAFT', publishTime: null }, metadata: { resourceVersion: '3' } });
    expect(byName['to-publish']).toMatchObject({ status: { phase: 'PUBLISHED' }, metadata: { resourceVersion: '4' } });
    expect(Date.parse(byName['to-publish'].status.publishTime ?? '')).not.toBeNaN();
    expect(byName['to-unpublish']).toEqual({
      status: { phase: 'DRAFT', publishTime: null },
      metadata: { resourceVersion: '5' },
    });
  });

  it('follows the watch from the list, with bookmarks and a timeout of its own, and judges each change', async () => {
    const changed = post('later', '12', true, { phase: 'DRAFT' });
    const fake = fakeContext(
      [post('early', '9', false, { phase: 'DRAFT' })],
      [
        { type: 'ADDED', object: post('later', '11', false, { phase: 'DRAFT' }) },
        { type: 'MODIFIED', object: changed },
      ],
    );
    await runUntil(fake, () => fake.writes.length === 1, 'the status write of the change');
    expect(fake.writes[0]).toMatchObject({ name: 'later', body: { status: { phase: 'PUBLISHED' } } });
    expect(fake.writes[0].body.metadata).toEqual({ resourceVersion: '12' });
    expect(fake.watchOptions[0]).toMatchObject({
      resourceVersion: '10',
      allowWatchBookmarks: true,
      timeoutSeconds: WATCH_TIMEOUT_SECONDS,
    });
    expect(fake.logged.warn).toEqual([]);
    expect(fake.logged.error).toEqual([]);
  });

  it('retries a write that failed, and leaves one that met a conflict to the change the watch brings', async () => {
    const conflict = new ApiError({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      code: 409,
      reason: 'Conflict',
      status: 'Failure',
    });
    const fake = fakeContext([post('flaky', '3', true, { phase: 'DRAFT' }), post('raced', '4', true)], [], {
      flaky: [new NetworkError('PATCH posts/flaky/status broke off: other side closed')],
      raced: [conflict],
    });
    // A retry comes 5 ms after a failure at first (the reconcile loop's backoff): a conflict retried would show
    // well within the window.
    const notRetried = () => holdsFor(() => fake.asked.raced === 1, { forMs: 250, what: 'the conflict unretried' });
    await runUntil(fake, () => fake.writes.some((w) => w.name === 'flaky'), 'the retried write', notRetried);
    expect(fake.writes.map((w) => w.name)).toEqual(['flaky']);
    expect(fake.asked.flaky).toBe(2);
    expect(fake.logged.error).toEqual(['reconcile failed; retrying with backoff']);
  });
});
