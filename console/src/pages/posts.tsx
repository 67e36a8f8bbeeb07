import { useState } from 'preact/hooks';
import { api } from '../api/client';
import { ALL_POSTS, MY_POSTS } from '../api/paths';
import { ErrorBox } from '../components/error-box';
import { DataTable } from '../components/data-table';
import { useAction, useAsync } from '../components/use-async';
import { HasPermission, useHasPermission } from '../permissions/permissions';
import { PostForm } from './post-form';

/** A Post (the content module). */
export interface Post {
  metadata: { name: string; version?: number };
  spec: { title?: string; slug?: string; content?: string; owner?: string; publish?: boolean };
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
  const [editing, setEditing] = useState<Post | undefined>();
  const saved = () => {
    setEditing(undefined);
    posts.reload();
  };
  const table = { base, all, onChange: posts.reload, onEdit: setEditing };
  return (
    <>
      <h1>{all ? 'All posts' : 'My posts'}</h1>
      {posts.error?.code === 404 ? (
        <p role="alert">
          The content module is not running on this server (it may be disabled): there are no posts to show.
        </p>
      ) : (
        <ErrorBox error={posts.error} />
      )}
      {posts.value && <PostsTable posts={posts.value.items} {...table} />}
      <HasPermission permissions={[POSTS.contribute]}>
        <PostForm
          key={editing?.metadata.name ?? 'new'}
          post={editing}
          onSaved={saved}
          onCancel={() => setEditing(undefined)}
        />
      </HasPermission>
    </>
  );
}

interface TableProps {
  base: string;
  all: boolean;
  onChange: () => void;
  onEdit: (post: Post) => void;
}

function PostsTable(props: TableProps & { posts: Post[] }) {
  if (props.posts.length === 0) return <p>No posts yet.</p>;
  return (
    <DataTable columns={['Title', 'Slug', props.all && 'Owner', 'Phase', 'Actions']}>
      {props.posts.map((post) => (
        <tr key={post.metadata.name}>
          <td>{post.spec.title}</td>
          <td>{post.spec.slug}</td>
          {props.all && <td>{post.spec.owner}</td>}
          <td>{post.status?.phase ?? 'DRAFT'}</td>
          <td>
            <PostActions {...props} post={post} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/**
 * What the caller may do to a post: on their own (the user-centre API) edit and submit (contributors), publish,
 * unpublish and delete (authors); on every post (the console API) publish, unpublish and delete (administrators).
 */
function PostActions(props: TableProps & { post: Post }) {
  const action = useAction();
  const run = (method: string, url: string, body?: unknown) => () =>
    void action.run(async () => {
      await api(method, url, body === undefined ? {} : { body, contentType: 'application/merge-patch+json' });
      props.onChange();
    });
  return (
    <div class="actions">
      {props.all ? <ManageActions {...props} run={run} /> : <OwnActions {...props} run={run} />}
      <ErrorBox error={action.error} />
    </div>
  );
}

type Run = (method: string, url: string, body?: unknown) => () => void;

const titleOf = (post: Post) => post.spec.title ?? post.metadata.name;

function ManageActions(props: TableProps & { post: Post; run: Run }) {
  const path = `${ALL_POSTS}/${encodeURIComponent(props.post.metadata.name)}`;
  const published = props.post.spec.publish === true;
  const title = titleOf(props.post);
  return (
    <HasPermission permissions={[POSTS.manage]}>
      <button
        type="button"
        onClick={props.run('PATCH', path, { spec: { publish: !published } })}
        aria-label={`${published ? 'Unpublish' : 'Publish'} ${title}`}
      >
        {published ? 'Unpublish' : 'Publish'}
      </button>
      <button type="button" class="danger" onClick={props.run('DELETE', path)} aria-label={`Delete ${title}`}>
        Delete
      </button>
    </HasPermission>
  );
}

function OwnActions(props: TableProps & { post: Post; run: Run }) {
  const { run } = props;
  const own = `${MY_POSTS}/${encodeURIComponent(props.post.metadata.name)}`;
  const phase = props.post.status?.phase ?? 'DRAFT';
  const title = titleOf(props.post);
  return (
    <>
      <HasPermission permissions={[POSTS.contribute]}>
        <button type="button" onClick={() => props.onEdit(props.post)} aria-label={`Edit ${title}`}>
          Edit
        </button>
      </HasPermission>
      {phase === 'DRAFT' && (
        <HasPermission permissions={[POSTS.contribute]}>
          <button type="button" onClick={run('PUT', `${own}/submit`)} aria-label={`Submit ${title} for review`}>
            Submit
          </button>
        </HasPermission>
      )}
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
        <button type="button" class="danger" onClick={run('DELETE', own)} aria-label={`Delete ${title}`}>
          Delete
        </button>
      </HasPermission>
    </>
  );
}
