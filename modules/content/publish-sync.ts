import { isConflict, isNotFound } from '../../pkg/client/errors';
import type { PluginContext } from './plugin-context';
import { POSTS, type Post } from './post-model';
import { statusFor } from './post-rules';
import { writeStatus } from './post-writes';

const RETRY_MS = 1000;

/**
 * Keeps each post's `status.phase` in line with its `spec.publish` (a post
 * published or unpublished through the console API, by setting
 * `spec.publish`; a post created there without a status): lists the posts,
 * then follows their watch, starting over after any failure, until `signal`
 * aborts.
 */
export async function syncPublishStatus(ctx: PluginContext, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    try {
      const list = await ctx.client.list<Post>(POSTS, { signal });
      for (const post of list.items) await reconcile(ctx, post);
      const events = await ctx.client.watch<Post>(POSTS, { resourceVersion: list.resourceVersion, signal });
      for await (const event of events) {
        if (event.type === 'ADDED' || event.type === 'MODIFIED') await reconcile(ctx, event.object as Post);
      }
    } catch (err) {
      if (signal.aborted) return;
      ctx.log.warn('post status sync failed; starting over', { reason: (err as Error).message });
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
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
