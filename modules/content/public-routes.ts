import type { PluginContext } from './plugin-context';
import { POSTS, type Post } from './post-model';
import { isPublic } from './post-rules';
import { answering, json, postNotFound } from './responses';

const BASE = '/apis/api.content.svc.run/v1alpha1/posts';

/**
 * The public side (docs/content.md): published posts only, read-only. The role
 * template `content-public-reader` (extensions/) opens it to everyone.
 */
export function registerPublicRoutes(ctx: PluginContext): void {
  const { client } = ctx;
  ctx.routes.get(BASE, () =>
    answering(async () => {
      const list = await client.list<Post>(POSTS, { fieldSelector: 'status.phase=PUBLISHED' });
      return json({ apiVersion: 'api.content.svc.run/v1alpha1', kind: 'PostList', items: list.items.filter(isPublic) });
    }),
  );
  ctx.routes.get(`${BASE}/{name}`, (req) =>
    answering(async () => {
      const post = await client.get<Post>(POSTS, req.params.name).catch((err: { code?: number }) => {
        if (err.code === 404) return undefined;
        throw err;
      });
      return post && isPublic(post) ? json(post) : postNotFound(req.params.name);
    }),
  );
}
