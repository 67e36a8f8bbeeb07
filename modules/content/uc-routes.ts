import { escapeFieldValue } from '../../pkg/api/selectors';
import { retryOnConflict } from '../../pkg/client/retry';
import type { PluginContext, RouteRequest } from './plugin-context';
import { POSTS, type Post } from './post-model';
import { editedPost, isRefusal, newDraft, type PostAction } from './post-rules';
import { act } from './post-writes';
import { answering, json, jsonBody, postNotFound, refused } from './responses';

const BASE = '/apis/uc.api.content.svc.run/v1alpha1/posts';

/** The user centre's view: the caller's own posts (as a selector; the value escaped, so it is one name). */
const ownPosts = (req: RouteRequest) => `spec.owner=${escapeFieldValue(req.user.name)}`;

/**
 * The user centre (docs/content.md): the caller's own posts. `spec.owner` is the caller, always; another user's
 * post answers 404, as a missing one does. Every read and write acts as the caller (`req.client`), so that what
 * they may do to which post is decided by their roles' rules (the built-in roles' conditions on `spec.owner`), not
 * here; which of these routes a user may call at all is up to their roles too.
 */
export function registerUserCentreRoutes(ctx: PluginContext): void {
  /** The caller's post, read as the caller, or undefined when it is missing or not theirs. */
  const ownPost = async (req: RouteRequest): Promise<Post | undefined> => {
    const fieldSelector = `${ownPosts(req)},metadata.name=${escapeFieldValue(req.params.name)}`;
    const list = await req.client.list<Post>(POSTS, { fieldSelector });
    return list.items[0];
  };

  ctx.routes.get(BASE, (req) =>
    answering(async () => {
      const list = await req.client.list<Post>(POSTS, { fieldSelector: ownPosts(req) });
      return json({ apiVersion: 'uc.api.content.svc.run/v1alpha1', kind: 'PostList', items: list.items });
    }),
  );

  // One write: the model's status default makes the new post a DRAFT (version 1, docs/api.md).
  ctx.routes.post(BASE, (req) =>
    answering(async () => {
      const created = await req.client.create<Post>(POSTS, newDraft(await jsonBody(req), req.user.name));
      return json(created, 201, { Location: `${BASE}/${created.metadata.name}` });
    }),
  );

  ctx.routes.get(`${BASE}/{name}`, (req) =>
    answering(async () => {
      const post = await ownPost(req);
      return post ? json(post) : postNotFound(req.params.name);
    }),
  );

  ctx.routes.put(`${BASE}/{name}`, (req) =>
    answering(async () => {
      const body = await jsonBody(req);
      // Each try reads the post again: its writes are conditional on what was checked (the module's own
      // status sync may write in between).
      return retryOnConflict(async () => {
        const post = await ownPost(req);
        if (!post) return postNotFound(req.params.name);
        const edited = editedPost(post, body);
        if (isRefusal(edited)) return refused(req.params.name, edited.refused);
        return json(await req.client.update<Post>(POSTS, edited));
      });
    }),
  );

  ctx.routes.delete(`${BASE}/{name}`, (req) =>
    answering(() =>
      retryOnConflict(async () => {
        const post = await ownPost(req);
        if (!post) return postNotFound(req.params.name);
        const deleted = await req.client.delete<Post>(POSTS, req.params.name, {
          preconditions: { uid: post.metadata.uid, resourceVersion: post.metadata.resourceVersion },
        });
        return deleted.removed ? json(deleted.status) : json(deleted.object);
      }),
    ),
  );

  for (const action of ['submit', 'publish', 'unpublish'] as PostAction[]) {
    ctx.routes.put(`${BASE}/{name}/${action}`, (req) =>
      answering(() =>
        retryOnConflict(async () => {
          const post = await ownPost(req);
          if (!post) return postNotFound(req.params.name);
          const done = await act(req.client, post, action);
          return isRefusal(done) ? refused(req.params.name, done.refused) : json(done);
        }),
      ),
    );
  }
}
