import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { ALL_POSTS, MY_POSTS } from '../api/paths';
import { ErrorBox } from '../components/error-box';
import { TextField } from '../components/field';
import { useAction, useAsync } from '../components/use-async';
import { HasPermission, useHasPermission } from '../permissions/permissions';

/** A Post (the content module). */
export interface Post {
  metadata: { name: string; version?: number };
  spec: { title?: string; slug?: string; content?: string; owner?: string };
  status?: { phase?: string; publishTime?: string };
}

/** UI permissions of the content module's roles. */
export const POSTS = {
  contribute: 'uc:posts:contribute',
  publish: 'uc:posts:publish',
  view: 'system:posts:view',
  manage: 'system:posts:manage',
};

/**
 * Posts: authors see their own (the user-centre API), post administrators
 * every post (the console API). The same screen; the buttons follow the
 * caller's UI permissions, never their role names.
 */
export function PostsPage() {
  const all = useHasPermission([POSTS.view]);
  const base = all ? ALL_POSTS : MY_POSTS;
  const posts = useAsync(() => api<{ items: Post[] }>('GET', base), [base]);
  return (
    <>
      <h1>{all ? 'All posts' : 'My posts'}</h1>
      <ErrorBox error={posts.error} />
      {posts.value && <PostsTable posts={posts.value.items} base={base} all={all} onChange={posts.reload} />}
      <HasPermission permissions={[POSTS.contribute]}>
        <NewPost onCreated={posts.reload} />
      </HasPermission>
    </>
  );
}

function PostsTable(props: { posts: Post[]; base: string; all: boolean; onChange: () => void }) {
  if (props.posts.length === 0) return <p>No posts yet.</p>;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">Title</th>
          <th scope="col">Slug</th>
          {props.all && <th scope="col">Owner</th>}
          <th scope="col">Phase</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {props.posts.map((post) => (
          <tr key={post.metadata.name}>
            <td>{post.spec.title}</td>
            <td>{post.spec.slug}</td>
            {props.all && <td>{post.spec.owner}</td>}
            <td>{post.status?.phase ?? 'DRAFT'}</td>
            <td>
              <PostActions post={post} base={props.base} all={props.all} onChange={props.onChange} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the caller may do to a post: submit (contributors), publish or unpublish and delete (authors, administrators). */
function PostActions(props: { post: Post; base: string; all: boolean; onChange: () => void }) {
  const action = useAction();
  const path = `${props.base}/${encodeURIComponent(props.post.metadata.name)}`;
  const own = `${MY_POSTS}/${encodeURIComponent(props.post.metadata.name)}`;
  const phase = props.post.status?.phase ?? 'DRAFT';
  const title = props.post.spec.title ?? props.post.metadata.name;
  const run = (method: string, url: string) => () =>
    void action.run(async () => {
      await api(method, url);
      props.onChange();
    });
  return (
    <div class="actions">
      {!props.all && phase === 'DRAFT' && (
        <HasPermission permissions={[POSTS.contribute]}>
          <button type="button" onClick={run('PUT', `${own}/submit`)} aria-label={`Submit ${title} for review`}>
            Submit
          </button>
        </HasPermission>
      )}
      {!props.all && (
        <HasPermission permissions={[POSTS.publish]}>
          {phase === 'PUBLISHED' ? (
            <button type="button" onClick={run('PUT', `${own}/unpublish`)} aria-label={`Unpublish ${title}`}>
              Unpublish
            </button>
          ) : (
            <button type="button" onClick={run('PUT', `${own}/publish`)} aria-label={`Publish ${title}`}>
              Publish
            </button>
          )}
        </HasPermission>
      )}
      <HasPermission permissions={props.all ? [POSTS.manage] : [POSTS.publish]}>
        <button type="button" class="danger" onClick={run('DELETE', path)} aria-label={`Delete ${title}`}>
          Delete
        </button>
      </HasPermission>
      <ErrorBox error={action.error} />
    </div>
  );
}

function NewPost(props: { onCreated: () => void }) {
  const [form, setForm] = useState({ title: '', slug: '', content: '' });
  const action = useAction();
  const set = (key: keyof typeof form) => (value: string) => setForm({ ...form, [key]: value });
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      await api('POST', MY_POSTS, {
        body: { apiVersion: 'content.svc.run/v1alpha1', kind: 'Post', metadata: { name: form.slug }, spec: form },
      });
      setForm({ title: '', slug: '', content: '' });
      props.onCreated();
    });
  };
  const causes = action.error?.causes;
  return (
    <form onSubmit={submit} aria-labelledby="new-post">
      <h2 id="new-post">New post</h2>
      <TextField label="Title" name="title" value={form.title} onInput={set('title')} required causes={causes} />
      <TextField
        label="Slug"
        name="slug"
        value={form.slug}
        onInput={set('slug')}
        required
        causes={causes}
        hint="lowercase letters, digits and -"
      />
      <div class="field">
        <label for="field-content">Content</label>
        <textarea
          id="field-content"
          rows={6}
          value={form.content}
          onInput={(e) => set('content')((e.target as HTMLTextAreaElement).value)}
        />
      </div>
      <ErrorBox error={action.error} />
      <button type="submit" disabled={action.busy}>
        Save draft
      </button>
    </form>
  );
}
