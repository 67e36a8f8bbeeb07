import type { ApiClient } from '../../pkg/client';
import { objectPath } from '../../pkg/client/resource';
import { POSTS, type Post, type PostStatus } from './post-model';
import { applyAction, isRefusal, type PostAction, type Refusal } from './post-rules';

/** Replaces the post's status; only if the post is still at `resourceVersion` when one is given (else 409). */
export function writeStatus(
  client: ApiClient,
  name: string,
  status: PostStatus,
  resourceVersion?: string,
): Promise<Post> {
  const body: Record<string, unknown> = { status: { phase: status.phase, publishTime: status.publishTime ?? null } };
  if (resourceVersion) body.metadata = { resourceVersion };
  return client.request<Post>({
    method: 'PATCH',
    path: objectPath(POSTS, name, 'status'),
    body,
    contentType: 'application/merge-patch+json',
  });
}

/** Does a user centre action on the post: `spec.publish` first, then the status; or says why it may not. */
export async function act(
  client: ApiClient,
  post: Post,
  action: PostAction,
  now = new Date(),
): Promise<Post | Refusal> {
  const outcome = applyAction(post, action, now);
  if (isRefusal(outcome)) return outcome;
  const name = post.metadata.name!;
  // Every write is conditional on the version whose owner and phase were checked (409 if it changed meanwhile).
  let resourceVersion = post.metadata.resourceVersion;
  if ((post.spec.publish === true) !== outcome.publish) {
    const patched = await client.patch<Post>(POSTS, name, {
      metadata: { resourceVersion },
      spec: { publish: outcome.publish },
    });
    resourceVersion = patched.metadata.resourceVersion;
  }
  return writeStatus(client, name, outcome.status, resourceVersion);
}
