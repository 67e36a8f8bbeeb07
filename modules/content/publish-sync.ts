import type { ApiClient } from '../../pkg/client';
import { isConflict, isNotFound } from '../../pkg/client/errors';
import { Informer } from '../../pkg/controller/informer';
import { listerWatcherFor } from '../../pkg/controller/lister-watcher';
import { ReconcileLoop } from '../../pkg/controller/reconcile-loop';
import { reconcilerFn } from '../../pkg/controller/reconciler';
import type { DeepReadonly } from '../../pkg/util/deep-freeze';
import type { PluginContext } from './plugin-context';
import { pluginLogger } from './plugin-logger';
import { POSTS, type Post } from './post-model';
import { statusFor } from './post-rules';
import { writeStatus } from './post-writes';

/**
 * How long each watch asks to last. The server ends it then (or sooner, at its own `--watch-timeout`) and the sync
 * watches again from where it was, quietly: that is an ordinary renewal.
 */
export const WATCH_TIMEOUT_SECONDS = 10 * 60;

/**
 * Keeps each post's `status.phase` in line with its `spec.publish` (a post
 * published or unpublished through the console API, by setting
 * `spec.publish`; a post created there without a status) until `signal`
 * aborts: a controller on the runtime's parts. An informer lists and watches
 * the posts (bookmarks on, each watch renewed after WATCH_TIMEOUT_SECONDS;
 * resumed after a break, listed again after a 410, with backoff), and every
 * post it adds or changes is queued by name for a reconcile loop, which
 * writes the status the post asks for and retries a failed write with
 * backoff.
 */
export async function syncPublishStatus(ctx: PluginContext, signal: AbortSignal): Promise<void> {
  const log = pluginLogger(ctx.log).child({ part: 'publish-sync' });
  const source = listerWatcherFor<Post>(ctx.client, POSTS, {}, { timeoutSeconds: WATCH_TIMEOUT_SECONDS });
  const informer = new Informer<Post>(source, { name: 'posts', log });
  const loop = new ReconcileLoop({
    name: 'publish-sync',
    workers: 1,
    log,
    reconciler: reconcilerFn(async ({ name }) => {
      const post = informer.cache.get(name);
      if (post) await reconcile(ctx.client, post);
    }),
  });
  const enqueue = (post: DeepReadonly<Post>) => loop.add(post.metadata.name ?? '');
  informer.addEventHandler({ onAdd: enqueue, onUpdate: (_old, post) => enqueue(post) });
  loop.start();
  informer.start();
  if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
  await Promise.all([informer.stop(), loop.stop()]);
}

/** Writes the status the post's `spec.publish` asks for, if it is not the post's already. */
async function reconcile(client: ApiClient, post: DeepReadonly<Post>): Promise<void> {
  if (post.metadata.deletionTimestamp) return;
  const status = statusFor(post as Post, new Date());
  if (!status) return;
  try {
    await writeStatus(client, post.metadata.name!, status, post.metadata.resourceVersion);
  } catch (err) {
    // Changed or gone since: the watch brings what happened, which is queued and judged again.
    if (!isConflict(err) && !isNotFound(err)) throw err;
  }
}
