import { isConflict, isExpired, isNotFound, isResourceVersionTooLarge } from '../../pkg/client/errors';
import type { PluginContext } from './plugin-context';
import { POSTS, type Post } from './post-model';
import { statusFor } from './post-rules';
import { writeStatus } from './post-writes';

const RETRY_MS = 1000;

/**
 * How long each watch asks to last. The server ends it then (or sooner, at its own `--watch-timeout`) and the sync
 * watches again from where it was, quietly: that is an ordinary renewal.
 */
export const WATCH_TIMEOUT_SECONDS = 10 * 60;

/**
 * Keeps each post's `status.phase` in line with its `spec.publish` (a post
 * published or unpublished through the console API, by setting
 * `spec.publish`; a post created there without a status): lists the posts,
 * then follows their watch until `signal` aborts.
 *
 * The watch asks for bookmarks, so that an idle one still carries a line every
 * so often (a connection silent for 5 minutes is broken off by fetch) and its
 * `resourceVersion` stays fresh. A watch the server ends is resumed from the
 * last revision seen, without a word above debug; one it can no longer resume
 * (410) lists again; any other failure is a warning, then a new list.
 */
export async function syncPublishStatus(ctx: PluginContext, signal: AbortSignal): Promise<void> {
  let revision: string | undefined;
  while (!signal.aborted) {
    try {
      if (revision === undefined) revision = await listAndReconcile(ctx, signal);
      revision = await followWatch(ctx, revision, signal);
      ctx.log.debug('post watch ended by the server; watching again', { resourceVersion: revision });
    } catch (err) {
      if (signal.aborted) return;
      revision = undefined;
      if (isExpired(err) || isResourceVersionTooLarge(err)) {
        ctx.log.info('post watch too far behind; listing again', { reason: (err as Error).message });
        continue;
      }
      ctx.log.warn('post status sync failed; starting over', { reason: (err as Error).message });
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}

/** Reconciles every post; answers the list's revision. */
async function listAndReconcile(ctx: PluginContext, signal: AbortSignal): Promise<string> {
  const list = await ctx.client.list<Post>(POSTS, { signal });
  for (const post of list.items) await reconcile(ctx, post);
  return list.resourceVersion;
}

/** Follows one watch from `revision` until the server ends it; answers the last revision seen. */
async function followWatch(ctx: PluginContext, revision: string, signal: AbortSignal): Promise<string> {
  const events = await ctx.client.watch<Post>(POSTS, {
    resourceVersion: revision,
    allowWatchBookmarks: true,
    timeoutSeconds: WATCH_TIMEOUT_SECONDS,
    signal,
  });
  let last = revision;
  for await (const event of events) {
    if (event.type === 'ADDED' || event.type === 'MODIFIED') await reconcile(ctx, event.object as Post);
    last = event.object.metadata?.resourceVersion || last;
  }
  return last;
}

async function reconcile(ctx: PluginContext, post: Post): Promise<void> {
  if (post.metadata.deletionTimestamp) return;
  const status = statusFor(post, new Date());
  if (!status) return;
  try {
    await writeStatus(ctx.client, post.metadata.name!, status, post.metadata.resourceVersion);
  } catch (err) {
    // Changed or gone since: the watch brings what happened, judged again.
    if (!isConflict(err) && !isNotFound(err)) throw err;
  }
}
