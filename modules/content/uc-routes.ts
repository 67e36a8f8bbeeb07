import { retryOnConflict } from '../../pkg/client/retry';
import type { PluginContext, RouteRequest } from './plugin-context';
import { POSTS, type Post } from './post-model';
import { editedPost, isOwnedBy, isRefusal, newDraft, type PostAction } from './post-rules';
import { act } from './post-writes';
import { answering, json, jsonBody, postNotFound, refused } from './responses';

const BASE = '/apis/uc.api.content.svc.run/v1alpha1/posts';

/**
 * The user centre (docs/content.md): the caller's own posts. `spec.owner` is the
 * caller, always; another user's post answers 404, as a missing one does.
 * Which of these a user may call at all is up to their roles.
 */
export function registerUserCentreRoutes(ctx: PluginContext): void {
  const { client } = ctx;

  /** The caller's post, or undefined when it is missing or someone else's. */
  const ownPost = async (req: RouteRequest): Promise<Post | undefined> => {
    try {
      const post = await client.get<Post>(POSTS, req.params.name);
      return isOwnedBy(post, req.user.name) ? post : undefined;
    } catch (err) {
      if ((err as { code?: number }).code === 404) return undefined;
      throw err;
    }
  };

  ctx.routes.get(BASE, (req) =>
    answering(async () => {
      const list = await client.list<Post>(POSTS, { fieldSelector: `spec.owner=${req.user.name}` });
      // The selector narrows the read; the owner check decides (a name with selector syntax cannot widen it).
      const items = list.items.filter((post) => isOwnedBy(post, req.user.name));
      return json({ apiVersion: 'uc.api.content.svc.run/v1alpha1', kind: 'PostList', items });
    }),
  );

  // One write: the model's status default makes the new post a DRAFT (version 1, docs/api.md).
  ctx.routes.post(BASE, (req) =>
    answering(async () => {
      const created = await client.create<Post>(POSTS, newDraft(await jsonBody(req), req.user.name));
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
        return json(await client.update<Post>(POSTS, edited));
      });
    }),
  );

  ctx.routes.delete(`${BASE}/{name}`, (req) =>
    answering(() =>
      retryOnConflict(async () => {
        const post = await ownPost(req);
        if (!post) return postNotFound(req.params.name);
        const deleted = await client.delete<Post>(POSTS, req.params.name, {
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
          const done = await act(client, post, action);
          return isRefusal(done) ? refused(req.params.name, done.refused) : json(done);
        }),
      ),
    );
  }
}
